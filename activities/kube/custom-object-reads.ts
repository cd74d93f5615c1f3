// Custom objects named by their kind's group, version and plural rather than through the registry:
// ProviderConfigs and the like, which connectors read (ConnectContext) and which are not managed kinds.
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { ClusterKind } from '#core/external-client';
import { orUndefinedOn404 } from './api-errors';

export class CustomObjectReads {
  constructor(private readonly customObjects: CustomObjectsApi) {}

  async clusterScoped(api: ClusterKind, name: string): Promise<Record<string, unknown> | undefined> {
    return orUndefinedOn404(() =>
      this.customObjects.getClusterCustomObject({ group: api.group, version: api.version, plural: api.plural, name }),
    );
  }

  async namespaced(api: ClusterKind, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    return orUndefinedOn404(() =>
      this.customObjects.getNamespacedCustomObject({ group: api.group, version: api.version, plural: api.plural, namespace, name }),
    );
  }
}
