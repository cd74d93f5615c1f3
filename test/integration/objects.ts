// Helpers for tests of provider-kubernetes' Object: building Objects that land in remote-1,
// reading them in the control cluster and their targets in the remote one.
import { randomBytes } from 'node:crypto';
import { condition, eventually, remoteKubectl, type VpcObject } from './harness';
import { runKubectl } from './kubectl';

export const REMOTE = 'remote-1';
export const OBJECTS = 'objects.kubernetes.crossplane.io';

/** Objects are cluster-scoped and every file's names share one cluster: a suffix keeps them apart. */
export function namer(): (name: string) => string {
  const suffix = randomBytes(3).toString('hex');
  return (name) => `${name}-${suffix}`;
}

export type Manifest = { apiVersion: string; kind: string; metadata?: Record<string, unknown>; [field: string]: unknown };

export const configMap = (data: Record<string, string>, metadata: Record<string, unknown> = {}): Manifest => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', ...metadata },
  data,
});

export const object = (name: string, manifest: Manifest, spec: Record<string, unknown> = {}, apiVersion = 'v1alpha2') => ({
  apiVersion: `kubernetes.crossplane.io/${apiVersion}`,
  kind: 'Object',
  metadata: { name },
  spec: { forProvider: { manifest }, providerConfigRef: { name: REMOTE }, ...spec },
});

/** Sent as JSON: kubectl reads YAML 1.1, where an unquoted `yes` would become a boolean. */
export const apply = (manifest: object) => runKubectl(['apply', '-f', '-'], JSON.stringify(manifest));

export async function getObject(name: string): Promise<VpcObject | undefined> {
  try {
    return JSON.parse(await runKubectl(['get', OBJECTS, name, '-o', 'json'])) as VpcObject;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

export async function ready(name: string, timeoutMs?: number): Promise<VpcObject> {
  let last: VpcObject | undefined;
  try {
    return await eventually(
      async () => {
        const found = (last = await getObject(name));
        return condition(found, 'Ready')?.status === 'True' && condition(found, 'Synced')?.status === 'True' && found;
      },
      `Object ${name} to be Ready and Synced`,
      timeoutMs,
    );
  } catch (error) {
    // The conditions say why, which is what a reader of a failed run needs first.
    throw new Error(`${(error as Error).message}; last conditions: ${JSON.stringify(last?.status?.conditions ?? null)}`);
  }
}

/** Waits until the Object's condition of `type` has `status`, and returns the condition. */
export const conditionBecomes = (name: string, type: string, status: 'True' | 'False') =>
  eventually(async () => {
    const found = condition(await getObject(name), type);
    return found?.status === status && found;
  }, `Object ${name} to have ${type}=${status}`);

export async function remoteObject(
  kind: string,
  name: string,
  namespace = 'default',
): Promise<{ data?: Record<string, string>; metadata: Record<string, any>; [field: string]: unknown } | undefined> {
  try {
    return JSON.parse(await remoteKubectl(REMOTE, ['get', kind, '-n', namespace, name, '-o', 'json']));
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

export const remoteConfigMap = (name: string) => remoteObject('configmap', name);
export const deleteObjects = (...names: string[]) => runKubectl(['delete', OBJECTS, ...names, '--wait=false']);
export const gone = (name: string) => eventually(async () => (await getObject(name)) === undefined, `Object ${name} to be gone`);
export const atProviderOf = (found: VpcObject | undefined) => (found?.status?.atProvider as { manifest?: Manifest } | undefined)?.manifest;
