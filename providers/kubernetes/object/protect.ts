// Seed 002's "Uninstall Order" in the target cluster: while other Objects depend on this one,
// its target object carries a finalizer of ours, so that deleting it there directly (kubectl in
// the target, another controller) leaves it Terminating until its dependents are gone, instead
// of pulling it from under them. The finalizer goes once the last dependent lets go, before the
// Object deletes the target itself.
import { PatchStrategy, type KubernetesObject, type KubernetesObjectApi } from '@kubernetes/client-node';

export const IN_USE_FINALIZER = 'chronoplane.io/in-use';

/**
 * Adds or removes the finalizer on `live` (the target as last observed) so that it says
 * `inUse`; undefined when it already does (no call). A merge patch of the whole finalizer list,
 * guarded by the observed resourceVersion: a concurrent change fails it (409) and the next
 * pass tries again from a fresh observation, rather than dropping someone else's finalizer.
 */
export async function protectTarget(objects: KubernetesObjectApi, live: KubernetesObject, inUse: boolean): Promise<string | undefined> {
  const finalizers = live.metadata?.finalizers ?? [];
  const has = finalizers.includes(IN_USE_FINALIZER);
  if (has === inUse) return undefined;
  const wanted = inUse ? [...finalizers, IN_USE_FINALIZER] : finalizers.filter((f) => f !== IN_USE_FINALIZER);
  const { name, namespace, resourceVersion } = live.metadata ?? {};
  await objects.patch(
    { apiVersion: live.apiVersion, kind: live.kind, metadata: { name, namespace, resourceVersion, finalizers: wanted } },
    undefined,
    undefined,
    undefined,
    undefined,
    PatchStrategy.MergePatch,
  );
  const what = `${live.kind} ${namespace ? `${namespace}/` : ''}${name}`;
  return inUse
    ? `added finalizer ${IN_USE_FINALIZER} to ${what}: other Objects depend on it`
    : `removed finalizer ${IN_USE_FINALIZER} from ${what}`;
}
