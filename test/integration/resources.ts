// Any object of the control cluster by its resource name (`objects.kubernetes.m.crossplane.io`,
// `configmap`), read with kubectl as a user reads it, and waited for until Ready and Synced.
import { condition, eventually, type VpcObject } from './harness';
import { runKubectl } from './kubectl';

/** An object as kubectl prints it; `condition` reads its conditions. */
export type KubeObject = VpcObject & { data?: Record<string, string>; status?: any };

/** The object, or undefined when there is none. */
export async function getResource(resource: string, name: string, namespace?: string): Promise<KubeObject | undefined> {
  try {
    return JSON.parse(await runKubectl([...(namespace ? ['-n', namespace] : []), 'get', resource, name, '-o', 'json'])) as KubeObject;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

/** Waits for Ready=True and Synced=True and returns the object; a timeout says its last conditions. */
export async function readyResource(resource: string, name: string, namespace?: string): Promise<KubeObject> {
  let last: KubeObject | undefined;
  try {
    return await eventually(async () => {
      const found = (last = await getResource(resource, name, namespace));
      return condition(found, 'Ready')?.status === 'True' && condition(found, 'Synced')?.status === 'True' && found;
    }, `${resource} ${name} to be Ready and Synced`);
  } catch (error) {
    throw new Error(`${(error as Error).message}; last conditions: ${JSON.stringify(last?.status?.conditions ?? null)}`);
  }
}
