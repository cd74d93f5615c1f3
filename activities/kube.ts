// The activities' window onto the control plane's API server: typed, small, and the only place
// that knows @kubernetes/client-node's calling conventions.
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Event,
} from '@kubernetes/client-node';
import type { ClusterKind, ConnectContext } from '../runtime/external-client';
import type { ManagedResource } from '../runtime/managed-resource';
import type { ResourceRef } from '../runtime/managed-kind';
import { loadKubeConfig } from '../runtime/kube-config';

export const FIELD_MANAGER = 'chronoplane';

export class KubeAccess implements ConnectContext {
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;

  constructor(kubeConfig: KubeConfig) {
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  static fromDefault(): KubeAccess {
    return new KubeAccess(loadKubeConfig());
  }

  async get(ref: ResourceRef): Promise<ManagedResource | undefined> {
    return orUndefinedOn404(() => this.custom.getNamespacedCustomObject({ ...target(ref) }));
  }

  /** A JSON merge patch of the object (metadata or spec), guarded by its uid. */
  async patch(ref: ResourceRef, uid: string, body: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patchNamespacedCustomObject(
      { ...target(ref), body: withUidPrecondition(body, uid), fieldManager: FIELD_MANAGER },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  async patchStatus(ref: ResourceRef, uid: string, status: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patchNamespacedCustomObjectStatus(
      { ...target(ref), body: withUidPrecondition({ status }, uid), fieldManager: FIELD_MANAGER },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /** Replaces the object; fails with 409 if it changed since it was read (optimistic locking). */
  async replace(ref: ResourceRef, object: ManagedResource): Promise<ManagedResource> {
    return this.custom.replaceNamespacedCustomObject({ ...target(ref), body: object, fieldManager: FIELD_MANAGER });
  }

  async createEvent(event: CoreV1Event): Promise<void> {
    await this.core.createNamespacedEvent({ namespace: event.metadata.namespace!, body: event });
  }

  async getClusterObject(api: ClusterKind, name: string): Promise<Record<string, unknown> | undefined> {
    return orUndefinedOn404(() => this.custom.getClusterCustomObject({ group: api.group, version: api.version, plural: api.plural, name }));
  }

  async getSecretValue(namespace: string, name: string, key: string): Promise<string | undefined> {
    const secret = await orUndefinedOn404(() => this.core.readNamespacedSecret({ namespace, name }));
    const encoded = secret?.data?.[key];
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  }
}

const target = (ref: ResourceRef) => ({
  group: ref.group,
  version: ref.version,
  namespace: ref.namespace,
  plural: ref.plural,
  name: ref.name,
});

/**
 * A merge patch that carries metadata.uid makes the API server reject it (409 Conflict) when the
 * object was deleted and recreated under the same name, so a stale workflow never writes to
 * its successor.
 */
function withUidPrecondition(body: Record<string, unknown>, uid: string): Record<string, unknown> {
  const metadata = (body.metadata as Record<string, unknown> | undefined) ?? {};
  return { ...body, metadata: { ...metadata, uid } };
}

export function isStatus(error: unknown, code: number): boolean {
  return error instanceof ApiException && error.code === code;
}

async function orUndefinedOn404<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isStatus(error, 404)) return undefined;
    throw error;
  }
}
