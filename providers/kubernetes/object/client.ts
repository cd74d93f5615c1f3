// The Object's external client: observe, create, update and delete one object in the cluster
// its ProviderConfig names. Reads come from one shared watch per cluster and kind (see
// target-watches.ts), which also wakes the Object when its target changes; writes are
// server-side applies with a field manager per Object, forced for the fields it names, so it
// never fights other controllers over fields it does not name.
import { PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { Connector, ExternalClient, ExternalCreation, ExternalDeletion, ExternalObservation } from '../../../runtime/external-client';
import { createLogger } from '../../../runtime/logger';
import { managementPoliciesOf, type ManagedResource } from '../../../runtime/managed-resource';
import { connectToCluster, type ClusterConnection } from '../cluster-connection';
import { PlainObjectApi } from '../../../runtime/plain-object-api';
import { TargetWatches, type TargetKey } from '../target-watches';
import { connectionDetailsOf, detailSource, type ConnectionDetailSpec, type TargetRef } from './connection-details';
import { protectTarget } from './protect';
import { readinessOf, type ReadinessSpec } from './readiness';
import { observedManifest } from './sanitize';
import type { ObjectObservation, ObjectParameters } from './schema';
import { TargetCalls } from './target-calls';
import { describeTarget, desiredObject, fieldManagerFor, targetKeyOf, type DesiredObject } from './target';
import { UpToDateCheck } from './up-to-date';

type ObjectResource = ManagedResource<ObjectParameters, ObjectObservation>;
type Observation = ExternalObservation<ObjectParameters, ObjectObservation>;

/** The v1alpha2 fields the engine's ManagedResource does not know. */
interface ObjectOnlySpec {
  readiness?: ReadinessSpec;
  connectionDetails?: ConnectionDetailSpec[];
}

const log = createLogger('object');
// One per worker: every Object of a cluster and kind shares one watch and its cache.
const watches = new TargetWatches((what, error, retryIn) =>
  log.warn({ what, err: String(error), retryInSeconds: retryIn }, 'watch of target objects failed; retrying'),
);
const upToDateCheck = new UpToDateCheck();
// One client per cluster: it caches discovery (which resource serves a kind), which a client
// per pass would ask the target again for every call.
const clients = new Map<string, PlainObjectApi>();

export const objectConnector: Connector<ObjectParameters, ObjectObservation> = {
  async connect(mr, context): Promise<ExternalClient<ObjectParameters, ObjectObservation>> {
    const providerConfig = mr.spec.providerConfigRef?.name ?? 'default';
    const connection = await connectToCluster(providerConfig, context);
    return new ObjectClient(connection, clientFor(connection), new TargetCalls(providerConfig), context.wake);
  },
};

function clientFor(connection: ClusterConnection): PlainObjectApi {
  let client = clients.get(connection.key);
  if (!client) clients.set(connection.key, (client = PlainObjectApi.forConfig(connection.kubeConfig)));
  return client;
}

class ObjectClient implements ExternalClient<ObjectParameters, ObjectObservation> {
  private readonly kubeConfig: KubeConfig;

  constructor(
    private readonly connection: ClusterConnection,
    private readonly api: PlainObjectApi,
    private readonly calls: TargetCalls,
    private readonly wake: ((mr: ManagedResource) => void) | undefined,
  ) {
    this.kubeConfig = connection.kubeConfig;
  }

  async observe(mr: ObjectResource): Promise<Observation> {
    const desired = desiredObject(mr);
    const key = this.keyOf(desired);
    const live = await this.read(key, mr);
    if (!live) {
      if (mr.metadata.deletionTimestamp) this.release(key, mr);
      return { resourceExists: false, resourceUpToDate: false };
    }
    const mayUpdate = managementPoliciesOf(mr.spec).some((action) => action === '*' || action === 'Update');
    // Only an Object that may update its target asks the dry run: an Observe-only Object never
    // sends a write, not even a dry one, and needs no permission to patch.
    const upToDate = mayUpdate
      ? await upToDateCheck.isUpToDate(mr.metadata.uid, desired, live, () => this.apply(desired, mr, 'All'))
      : true;
    const spec = mr.spec as ObjectOnlySpec;
    return {
      ...this.observationOf(mr, live),
      resourceUpToDate: upToDate,
      diff: upToDate ? undefined : `${describeTarget(key)} differs from the manifest`,
      connectionDetails: await connectionDetailsOf(spec.connectionDetails, desired, (ref) => this.read(this.keyOf(ref), mr)),
    };
  }

  async create(mr: ObjectResource): Promise<ExternalCreation<ObjectParameters, ObjectObservation>> {
    const applied = await this.applyAndRecord(mr);
    const spec = mr.spec as ObjectOnlySpec;
    return {
      externalName: applied.metadata!.name!,
      summary: `created ${describeTarget(this.keyOf(desiredObject(mr)))} by server-side apply`,
      // The apply's answer is the object as it is now, unless connection details need other reads.
      observation: spec.connectionDetails?.length ? undefined : { ...this.observationOf(mr, applied), resourceUpToDate: true },
    };
  }

  async update(mr: ObjectResource): Promise<string> {
    await this.applyAndRecord(mr);
    return `applied the manifest to ${describeTarget(this.keyOf(desiredObject(mr)))}`;
  }

  async delete(mr: ObjectResource): Promise<ExternalDeletion> {
    const desired = desiredObject(mr);
    const key = this.keyOf(desired);
    watches.deleting(key);
    const gone = await this.calls.run(
      `delete ${describeTarget(key)}`,
      async () => (await this.api.delete(desired), false),
      () => true,
    );
    if (gone) this.release(key, mr);
    return { summary: gone ? `${describeTarget(key)} is already gone` : `deleted ${describeTarget(key)}`, gone };
  }

  async protect(mr: ObjectResource, observed: Observation, inUse: boolean): Promise<string | undefined> {
    // The observation is sanitized, but its metadata (finalizers, resourceVersion) is whole.
    const live = observed.atProvider?.manifest as KubernetesObject | undefined;
    if (!live) return undefined;
    return this.calls.run(`update the finalizers of ${describeTarget(this.keyOf(desiredObject(mr)))}`, () =>
      protectTarget(this.api, live, inUse),
    );
  }

  private keyOf(target: DesiredObject | TargetRef): TargetKey {
    return 'metadata' in target ? targetKeyOf(this.connection.key, target) : { cluster: this.connection.key, ...target };
  }

  /** The target from the shared watch, or from the server when the watch cannot answer yet. */
  private async read(key: TargetKey, mr: ObjectResource): Promise<KubernetesObject | undefined> {
    if (this.wake) watches.follow(key, this.kubeConfig, mr.metadata.uid, () => this.wake!(mr));
    const cached = await this.calls.run(`watch ${key.kind} (${key.apiVersion})`, () => watches.cached(key, this.kubeConfig));
    if (cached !== undefined) return cached ?? undefined;
    return this.calls.run(
      `get ${describeTarget(key)}`,
      () =>
        this.api.read({ apiVersion: key.apiVersion, kind: key.kind, metadata: { name: key.name, namespace: key.namespace || undefined } }),
      () => undefined,
    );
  }

  private apply(desired: DesiredObject, mr: ObjectResource, dryRun?: 'All'): Promise<KubernetesObject> {
    const what = `${dryRun ? 'dry-run ' : ''}apply ${describeTarget(this.keyOf(desired))} of ${desired.apiVersion}`;
    return this.calls.run(what, () =>
      this.api.patch(desired, undefined, dryRun, fieldManagerFor(mr.metadata.name), true, PatchStrategy.ServerSideApply),
    );
  }

  private async applyAndRecord(mr: ObjectResource): Promise<KubernetesObject> {
    const desired = desiredObject(mr);
    const applied = await this.apply(desired, mr);
    upToDateCheck.recordApply(mr.metadata.uid, desired);
    watches.wrote(this.keyOf(desired), applied.metadata?.resourceVersion);
    return applied;
  }

  private observationOf(mr: ObjectResource, live: KubernetesObject): Omit<Observation, 'resourceUpToDate'> {
    // Readiness looks at the object itself (a CEL query may read anything in it); status shows
    // the sanitized copy.
    const readiness = readinessOf((mr.spec as ObjectOnlySpec).readiness, live as Record<string, unknown>);
    return { resourceExists: true, ...readiness, atProvider: { manifest: observedManifest(live) } };
  }

  /** The Object and its target have parted: stop following what it read and forget what we knew. */
  private release(key: TargetKey, mr: ObjectResource): void {
    const desired = desiredObject(mr);
    const sources = ((mr.spec as ObjectOnlySpec).connectionDetails ?? []).map((detail) => this.keyOf(detailSource(detail, desired)));
    for (const followed of [key, ...sources]) watches.unfollow(followed, mr.metadata.uid);
    upToDateCheck.forget(mr.metadata.uid);
  }
}
