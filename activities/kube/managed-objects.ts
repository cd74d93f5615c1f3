// The managed resources themselves, by ResourceRef: reads, and the writes a workflow makes to its
// own object. Every write that belongs to one object's workflow is guarded by that object's uid,
// so a stale workflow never writes to a successor of the same name.
import { PatchStrategy, setHeaderOptions, type CustomObjectsApi } from '@kubernetes/client-node';
import type { ManagedResource } from '#core/managed-resource';
import type { ResourceRef } from '#core/managed-kind';
import { kindFor } from '#providers/registry';
import { isStatus, orUndefinedOn404 } from './api-errors';
import { FIELD_MANAGER } from './field-manager';
import { customObjectTarget, ScopedCustomObjects } from './scoped-custom-objects';

export class ManagedObjects {
  private readonly custom: ScopedCustomObjects;

  constructor(private readonly customObjects: CustomObjectsApi) {
    this.custom = new ScopedCustomObjects(customObjects);
  }

  async get(ref: ResourceRef): Promise<ManagedResource | undefined> {
    return orUndefinedOn404(() => this.custom.get(customObjectTarget(ref)));
  }

  /** A JSON merge patch of the object (metadata or spec), guarded by its uid. */
  async patch(ref: ResourceRef, uid: string, body: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patch(
      { ...customObjectTarget(ref), body: withUidPrecondition(body, uid), fieldManager: FIELD_MANAGER },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /**
   * Replaces the status, guarded by the uid. The status subresource ignores metadata in a merge
   * patch (the API server keeps the stored metadata), so a uid there would guard nothing; a JSON
   * patch's `test` operation runs against the stored object and fails on a successor.
   */
  async patchStatus(ref: ResourceRef, uid: string, status: Record<string, unknown>): Promise<ManagedResource> {
    return this.custom.patchStatus(
      {
        ...customObjectTarget(ref),
        body: [
          { op: 'test', path: '/metadata/uid', value: uid },
          { op: 'add', path: '/status', value: status },
        ],
        fieldManager: FIELD_MANAGER,
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
  }

  /**
   * Sets the object's finalizers, provided it is still exactly the version the caller read:
   * a JSON patch whose `test`s of uid and resourceVersion run against the stored object, so a
   * stale read fails (422) instead of dropping someone else's finalizer. One request, where a
   * GET and a replace would be two. `addAnnotations` go in with them, in the same write.
   */
  async changeMetadataIfUnchanged(
    ref: ResourceRef,
    read: ManagedResource,
    finalizers: string[],
    addAnnotations: Record<string, string> = {},
  ): Promise<ManagedResource> {
    return this.custom.patch(
      {
        ...customObjectTarget(ref),
        body: [
          { op: 'test', path: '/metadata/uid', value: read.metadata.uid },
          { op: 'test', path: '/metadata/resourceVersion', value: read.metadata.resourceVersion },
          { op: 'add', path: '/metadata/finalizers', value: finalizers },
          ...annotationOps(read, addAnnotations),
        ],
        fieldManager: FIELD_MANAGER,
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
  }

  /**
   * Replaces the object; fails with 409 if it changed since it was read (optimistic locking).
   * Strict field validation: a field the kind does not have fails the write (400) instead of
   * being pruned quietly. `dryRun` asks the API server whether it would take the write.
   */
  async replace(ref: ResourceRef, object: ManagedResource, options: { dryRun?: boolean } = {}): Promise<ManagedResource> {
    return this.custom.replace({
      ...customObjectTarget(ref),
      body: object,
      fieldManager: FIELD_MANAGER,
      fieldValidation: 'Strict',
      ...(options.dryRun ? { dryRun: 'All' } : {}),
    });
  }

  /**
   * A merge patch of a managed object's annotations (null removes one), with no uid guard: in-use
   * marks belong to the dependent, not to the object's own workflow. With `ifExists`, a missing
   * object is not an error; the result says whether it was there.
   */
  async patchAnnotations(
    ref: ResourceRef,
    annotations: Record<string, string | null>,
    options: { ifExists?: boolean } = {},
  ): Promise<boolean> {
    try {
      await this.custom.patch(
        { ...customObjectTarget(ref), body: { metadata: { annotations } }, fieldManager: FIELD_MANAGER },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      return true;
    } catch (error) {
      if (options.ifExists && isStatus(error, 404)) return false;
      throw error;
    }
  }

  /** Managed objects of one kind in one namespace ('' for a cluster-scoped kind) that carry all of `labels`. */
  async list(group: string, kind: string, namespace: string, labels: Record<string, string>): Promise<ManagedResource[]> {
    const { api } = kindFor(group, kind);
    const labelSelector = Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const request = { group, version: api.version, plural: api.plural, labelSelector: labelSelector || undefined };
    const list = (await (namespace
      ? this.customObjects.listNamespacedCustomObject({ ...request, namespace })
      : this.customObjects.listClusterCustomObject(request))) as { items: ManagedResource[] };
    return list.items;
  }
}

/**
 * A merge patch that carries metadata.uid makes the API server reject it (422: metadata.uid is
 * immutable) when the object was deleted and recreated under the same name, so a stale workflow
 * never writes to its successor.
 */
function withUidPrecondition(body: Record<string, unknown>, uid: string): Record<string, unknown> {
  const metadata = (body.metadata as Record<string, unknown> | undefined) ?? {};
  return { ...body, metadata: { ...metadata, uid } };
}

/**
 * JSON patch operations that add `added` to the annotations of `read`'s version. One key at a
 * time when the object has annotations: the read may be a cached copy without some of them
 * (the object cache drops kubectl's last-applied-configuration), which a whole map would erase.
 */
function annotationOps(read: ManagedResource, added: Record<string, string>): { op: 'add'; path: string; value: unknown }[] {
  if (Object.keys(added).length === 0) return [];
  if (!read.metadata.annotations) return [{ op: 'add', path: '/metadata/annotations', value: added }];
  // RFC 6901: '~' and '/' in a key are written ~0 and ~1.
  const pointer = (key: string) => `/metadata/annotations/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  return Object.entries(added).map(([key, value]) => ({ op: 'add' as const, path: pointer(key), value }));
}
