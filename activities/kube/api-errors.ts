// The API server's refusals that callers take as answers rather than failures: 404 (not
// there), 409 (changed since it was read), a write too large to store. Every part of the
// control plane's access, and the activities that classify its failures, tell them apart here.
import { ApiException } from '@kubernetes/client-node';

export function isStatus(error: unknown, code: number): boolean {
  return error instanceof ApiException && error.code === code;
}

/**
 * Whether the API server refused a write for its size: its own request limit (413, 3 MiB) or
 * etcd's (1.5 MiB by default), which it passes on as "etcdserver: request is too large".
 */
export function isTooLarge(error: unknown): boolean {
  if (!(error instanceof ApiException)) return false;
  return (
    error.code === 413 ||
    /request is too large|entity too large/i.test(typeof error.body === 'string' ? error.body : JSON.stringify(error.body ?? ''))
  );
}

export async function orUndefinedOn404<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isStatus(error, 404)) return undefined;
    throw error;
  }
}
