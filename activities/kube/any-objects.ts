// Objects of any kind, named by apiVersion and kind and found through discovery: what generic
// references and the objects that managed resources depend on (a ConfigMap, a Secret, a kind we
// do not manage) are read and marked through. Plain JSON, as the API server sends it.
import { PatchStrategy, type KubeConfig } from '@kubernetes/client-node';
import type { ControlObjectKey } from '#core/external-client';
import { PlainObjectApi } from '#runtime/plain-object-api';
import type { ObjectKey } from '#runtime/references/dependencies';
import { isStatus } from './api-errors';
import { FIELD_MANAGER } from './field-manager';

/** Reads and conflicting writes setFinalizer tries before it gives up (the activity's retry takes over). */
const SET_FINALIZER_ATTEMPTS = 5;

export class AnyObjects {
  private readonly objects: PlainObjectApi;

  constructor(kubeConfig: KubeConfig) {
    this.objects = PlainObjectApi.forConfig(kubeConfig);
  }

  /** Any object by apiVersion and kind, or undefined when it (or its kind) does not exist. */
  async get(apiVersion: string, kind: string, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    try {
      return (await this.objects.read({ apiVersion, kind, metadata: { name, namespace: namespace || undefined } })) as Record<
        string,
        unknown
      >;
    } catch (error) {
      // An unknown kind fails discovery with a plain Error; it will not exist until its CRD does.
      if (isStatus(error, 404) || /Unrecognized API version and kind/.test(String(error))) return undefined;
      throw error;
    }
  }

  /** Every object of a kind in one namespace ('' for all, or a cluster-scoped kind), each with its apiVersion and kind. */
  async list(scope: Omit<ControlObjectKey, 'name'>): Promise<Record<string, unknown>[]> {
    const listed = await this.objects.list(scope.apiVersion, scope.kind, scope.namespace || undefined);
    return listed.items.map((o) => ({ ...o, apiVersion: scope.apiVersion, kind: scope.kind })) as unknown as Record<string, unknown>[];
  }

  /**
   * Adds (present) or removes one finalizer of any object, by apiVersion and kind. A merge patch
   * carrying the resourceVersion it read, so a concurrent change is never lost (409: read again).
   * False when the object is gone, or is being deleted and would need the finalizer added (the
   * API server takes no new finalizer then).
   */
  async setFinalizer(apiVersion: string, key: ObjectKey, finalizer: string, present: boolean): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const found = await this.get(apiVersion, key.kind, key.namespace, key.name);
      if (!found) return false;
      const metadata = found.metadata as { resourceVersion: string; finalizers?: string[]; deletionTimestamp?: string };
      const finalizers = metadata.finalizers ?? [];
      if (finalizers.includes(finalizer) === present) return true;
      if (present && metadata.deletionTimestamp) return false;
      const wanted = present ? [...finalizers, finalizer] : finalizers.filter((f) => f !== finalizer);
      const patch = {
        apiVersion,
        kind: key.kind,
        metadata: { name: key.name, namespace: key.namespace || undefined, resourceVersion: metadata.resourceVersion, finalizers: wanted },
      };
      try {
        await this.objects.patch(patch, undefined, undefined, FIELD_MANAGER, undefined, PatchStrategy.MergePatch);
        return true;
      } catch (error) {
        if (isStatus(error, 404)) return false;
        if (!isStatus(error, 409) || attempt >= SET_FINALIZER_ATTEMPTS) throw error;
      }
    }
  }
}
