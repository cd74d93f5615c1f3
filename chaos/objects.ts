// The round's managed objects as the API server shows them, one list call per kind. Polled
// once a second while a phase converges; a call that fails (the API server being killed) is
// a "not yet", never an answer.
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { KindApi } from '#core/managed-kind';
import type { ObservedObject } from './checks';
import { withTimeout } from './timeout';

const LIST_TIMEOUT_MS = 15_000;

interface ListedObject {
  kind?: string;
  metadata?: { name?: string; uid?: string; deletionTimestamp?: string };
  spec?: { forProvider?: Record<string, unknown> };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

type ObjectLister = () => Promise<ObservedObject[]>;

export function objectLister(kubeconfigPath: string, kinds: readonly KindApi[], namespace: string): ObjectLister {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  return async () => {
    const lists = await Promise.all(
      kinds.map(async (api) => {
        const list = (await withTimeout(
          custom.listNamespacedCustomObject({ group: api.group, version: api.version, namespace, plural: api.plural }),
          LIST_TIMEOUT_MS,
          `listing ${api.plural}`,
        )) as { items: ListedObject[] };
        return list.items.map((item) => observed(api.kind, item));
      }),
    );
    return lists.flat();
  };
}

function observed(kind: string, item: ListedObject): ObservedObject {
  const conditions = item.status?.conditions ?? [];
  const isTrue = (type: string) => conditions.some((c) => c.type === type && c.status === 'True');
  return {
    kind,
    name: item.metadata?.name ?? '',
    uid: item.metadata?.uid ?? '',
    ready: isTrue('Ready'),
    synced: isTrue('Synced'),
    deleting: item.metadata?.deletionTimestamp !== undefined,
    forProvider: item.spec?.forProvider ?? {},
    conditions:
      conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : ''}`).join('; ') ||
      'no conditions',
  };
}
