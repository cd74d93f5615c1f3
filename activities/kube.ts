// The activities' window onto the control plane's API server, and the ConnectContext providers
// connect with: the one object callers pass around and tests fake, composed of one part per
// concern in kube/. It is the only place that wires @kubernetes/client-node's clients together.
import { CoreV1Api, CustomObjectsApi, KubeConfig, type CoreV1Event, type V1Secret } from '@kubernetes/client-node';
import type { ClusterKind, ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { ResourceRef } from '#core/managed-kind';
import { loadKubeConfig } from '#runtime/kube-config';
import type { ObjectKey } from '#runtime/references/dependencies';
import { TargetWatches } from '#providers/kubernetes/target-watches';
import { AnyObjects } from './kube/any-objects';
import { CustomObjectReads } from './kube/custom-object-reads';
import { Events } from './kube/events';
import { FollowedObjects } from './kube/followed-objects';
import { ManagedObjects } from './kube/managed-objects';
import { NamespaceLabels } from './kube/namespace-labels';
import { Secrets } from './kube/secrets';

export class KubeAccess implements ConnectContext {
  /** Set by a worker that can signal workflows; see ConnectContext.wake. */
  wake?: (mr: ManagedResource) => void;
  private readonly managed: ManagedObjects;
  private readonly anyObjects: AnyObjects;
  /** Shared watches of the control cluster's kinds we do not manage (a ConfigMap, Namespaces), once started by a read. */
  private readonly watches = new TargetWatches();
  private readonly followed: FollowedObjects;
  private readonly namespaceLabels: NamespaceLabels;
  private readonly customObjects: CustomObjectReads;
  private readonly secrets: Secrets;
  private readonly events: Events;

  constructor(kubeConfig: KubeConfig) {
    const customObjects = kubeConfig.makeApiClient(CustomObjectsApi);
    const core = kubeConfig.makeApiClient(CoreV1Api);
    this.managed = new ManagedObjects(customObjects);
    this.anyObjects = new AnyObjects(kubeConfig);
    this.followed = new FollowedObjects(kubeConfig, this.watches, this.anyObjects, () => this.wake);
    this.namespaceLabels = new NamespaceLabels(kubeConfig, this.watches, core);
    this.customObjects = new CustomObjectReads(customObjects);
    this.secrets = new Secrets(core);
    this.events = new Events(core);
  }

  static fromDefault(): KubeAccess {
    return new KubeAccess(loadKubeConfig());
  }

  async stopWatches(): Promise<void> {
    await this.watches.stop();
  }

  // Managed resources (kube/managed-objects.ts).

  get(ref: ResourceRef): Promise<ManagedResource | undefined> {
    return this.managed.get(ref);
  }

  patch(ref: ResourceRef, uid: string, body: Record<string, unknown>): Promise<ManagedResource> {
    return this.managed.patch(ref, uid, body);
  }

  patchStatus(ref: ResourceRef, uid: string, status: Record<string, unknown>): Promise<ManagedResource> {
    return this.managed.patchStatus(ref, uid, status);
  }

  changeMetadataIfUnchanged(
    ref: ResourceRef,
    read: ManagedResource,
    finalizers: string[],
    addAnnotations?: Record<string, string>,
  ): Promise<ManagedResource> {
    return this.managed.changeMetadataIfUnchanged(ref, read, finalizers, addAnnotations);
  }

  replace(ref: ResourceRef, object: ManagedResource, options: { dryRun?: boolean } = {}): Promise<ManagedResource> {
    return this.managed.replace(ref, object, options);
  }

  patchAnnotations(ref: ResourceRef, annotations: Record<string, string | null>, options: { ifExists?: boolean } = {}): Promise<boolean> {
    return this.managed.patchAnnotations(ref, annotations, options);
  }

  list(group: string, kind: string, namespace: string, labels: Record<string, string>): Promise<ManagedResource[]> {
    return this.managed.list(group, kind, namespace, labels);
  }

  // Objects of any kind (kube/any-objects.ts).

  getAny(apiVersion: string, kind: string, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    return this.anyObjects.get(apiVersion, kind, namespace, name);
  }

  setFinalizer(apiVersion: string, key: ObjectKey, finalizer: string, present: boolean): Promise<boolean> {
    return this.anyObjects.setFinalizer(apiVersion, key, finalizer, present);
  }

  // Objects a dependent reads and is woken by (kube/followed-objects.ts).

  getReferenced(key: ObjectKey, apiVersion: string, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    return this.followed.getReferenced(key, apiVersion, dependent);
  }

  forgetReferenced(key: ObjectKey, apiVersion: string, dependentUid: string): void {
    this.followed.forgetReferenced(key, apiVersion, dependentUid);
  }

  readControlObject(key: ControlObjectKey, dependent: ManagedResource): Promise<Record<string, unknown> | undefined> {
    return this.followed.readControlObject(key, dependent);
  }

  listControlObjects(
    scope: Omit<ControlObjectKey, 'name'>,
    dependent: ManagedResource,
    wakesFor?: (obj: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>[]> {
    return this.followed.listControlObjects(scope, dependent, wakesFor);
  }

  forgetControlObjects(dependentUid: string, only?: Omit<ControlObjectKey, 'name'> & { name?: string }): void {
    this.followed.forgetControlObjects(dependentUid, only);
  }

  // What connectors read (kube/namespace-labels.ts, kube/custom-object-reads.ts, kube/secrets.ts).

  getNamespaceLabels(namespace: string): Promise<Record<string, string> | undefined> {
    return this.namespaceLabels.get(namespace);
  }

  getClusterObject(api: ClusterKind, name: string): Promise<Record<string, unknown> | undefined> {
    return this.customObjects.clusterScoped(api, name);
  }

  getNamespacedObject(api: ClusterKind, namespace: string, name: string): Promise<Record<string, unknown> | undefined> {
    return this.customObjects.namespaced(api, namespace, name);
  }

  getSecretValue(namespace: string, name: string, key: string): Promise<string | undefined> {
    return this.secrets.value(namespace, name, key);
  }

  // Connection Secrets (kube/secrets.ts) and Events (kube/events.ts).

  readSecret(namespace: string, name: string): Promise<V1Secret | undefined> {
    return this.secrets.read(namespace, name);
  }

  createSecret(namespace: string, secret: V1Secret): Promise<V1Secret> {
    return this.secrets.create(namespace, secret);
  }

  replaceSecret(namespace: string, name: string, secret: V1Secret): Promise<V1Secret> {
    return this.secrets.replace(namespace, name, secret);
  }

  createEvent(event: CoreV1Event): Promise<void> {
    return this.events.create(event);
  }
}
