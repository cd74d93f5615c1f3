// What status.atProvider.manifest may show of a target object. It mirrors the live object,
// status included, minus what would leak or only add noise: a Secret's data (redacted as
// provider-kubernetes' --sanitize-secrets does, which we always do: status is readable by
// everyone who can read the Object, and the observation passes through Temporal history) and
// the bookkeeping the API server adds (managedFields, kubectl's last-applied copy, which for a
// Secret is its data again).
import type { KubernetesObject } from '@kubernetes/client-node';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export function isSecret(object: Pick<KubernetesObject, 'apiVersion' | 'kind'>): boolean {
  return object.apiVersion === 'v1' && object.kind === 'Secret';
}

export function observedManifest(live: KubernetesObject): Record<string, unknown> {
  const { managedFields: _managedFields, annotations, ...metadata } = live.metadata ?? {};
  const kept: Record<string, unknown> = { ...live, metadata: { ...metadata } };
  if (annotations) {
    const { [LAST_APPLIED]: _lastApplied, ...others } = annotations;
    if (Object.keys(others).length > 0) (kept.metadata as Record<string, unknown>).annotations = others;
  }
  if (isSecret(live)) {
    // Upstream's shape: one key, no value, so tools that read `.data` still find a map.
    if ('data' in kept) kept.data = { redacted: null };
    delete kept.stringData;
  }
  return kept;
}
