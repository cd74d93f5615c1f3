// Every call to a target cluster goes through here: bounded in time, so that an unreachable
// cluster fails the pass with its connection error instead of hanging the activity, and with
// the target's own message, classified, and naming where the cluster came from (an Object's
// ProviderConfig, a workload's KubernetesCluster), in the error the Synced condition shows.
import { ApiException } from '@kubernetes/client-node';
import { ClassifiedError, isConnectionFailure, type FailureClass } from '#core/errors';

/** Long enough for a slow apply of a large object, short beside the activity's own timeout. */
const TARGET_CALL_TIMEOUT_MS = 20_000;

export class TargetCalls {
  /** `where` names the cluster in every message: `target cluster (ProviderConfig "remote-1")`. */
  constructor(
    private readonly where: string,
    private readonly timeoutMs = TARGET_CALL_TIMEOUT_MS,
  ) {}

  /** Runs `call`; a 404 answers `notFound` when given, every other failure throws a ClassifiedError. */
  async run<T>(what: string, call: () => Promise<T>, notFound?: () => T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ClassifiedError('Unreachable', `${this.where}: ${what} timed out after ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([call(), deadline]);
    } catch (error) {
      if (notFound && error instanceof ApiException && error.code === 404) return notFound();
      throw this.classified(what, error);
    } finally {
      clearTimeout(timer);
    }
  }

  private classified(what: string, error: unknown): Error {
    if (error instanceof ClassifiedError) return error;
    if (error instanceof ApiException) {
      // A 404 that is no Status comes from the router, not from a resource: nothing serves the
      // path, so the kind is not (yet) there, as before its CRD is installed.
      const reason = error.code === 404 && !isStatus(error.body) ? 'the target cluster does not serve this kind (yet)' : apiMessage(error);
      return new ClassifiedError(classOf(error.code), `${this.where}: cannot ${what}: ${reason}`);
    }
    // Discovery's answer for a kind the target does not serve (yet: its CRD may come later),
    // and network failures (ECONNREFUSED, TLS): both may pass. A cluster that does not answer
    // at all is Unreachable, so what it holds is not reported Ready meanwhile.
    const message = error instanceof Error ? error.message : String(error);
    return new ClassifiedError(isConnectionFailure(error) ? 'Unreachable' : 'Transient', `${this.where}: cannot ${what}: ${message}`);
  }
}

function classOf(status: number): FailureClass {
  if (status === 400 || status === 422) return 'InvalidInput';
  if (status === 401 || status === 403) return 'NotAuthorized';
  // 404 (a namespace not there yet), 409 (a concurrent change), 429, 5xx: a later try may pass.
  return 'Transient';
}

function apiMessage(error: ApiException<unknown>): string {
  let body: unknown = error.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return (body as string) || `HTTP ${error.code}`;
    }
  }
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message ? message : `HTTP ${error.code}`;
}

function isStatus(body: unknown): boolean {
  try {
    const parsed: unknown = typeof body === 'string' ? JSON.parse(body) : body;
    return (parsed as { kind?: unknown } | undefined)?.kind === 'Status';
  } catch {
    return false;
  }
}
