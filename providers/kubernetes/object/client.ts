// The Object's external client: observe, create, update and delete one object in the cluster
// its ProviderConfig names, through the shared remote-cluster access (../remote/cluster.ts):
// reads from one shared watch per cluster and kind, which also wakes the Object when its
// target changes, and server-side applies with a field manager per Object.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Connector, ExternalClient, ExternalCreation, ExternalDeletion, ExternalObservation } from '../../../runtime/external-client';
import { managementPoliciesOf, type ManagedResource } from '../../../runtime/managed-resource';
import { connectToCluster } from '../cluster-connection';
import { RemoteCluster } from '../remote/cluster';
import { describeTarget, type DesiredObject } from '../remote/target';
import type { TargetKey } from '../target-watches';
import { connectionDetailsOf, detailSource, type ConnectionDetailSpec, type TargetRef } from './connection-details';
import { protectTarget } from './protect';
import { readinessOf, type ReadinessSpec } from './readiness';
import { observedManifest } from './sanitize';
import type { ObjectObservation, ObjectParameters } from './schema';
import { desiredObject } from './target';

type ObjectResource = ManagedResource<ObjectParameters, ObjectObservation>;
type Observation = ExternalObservation<ObjectParameters, ObjectObservation>;

/** The v1alpha2 fields the engine's ManagedResource does not know. */
interface ObjectOnlySpec {
  readiness?: ReadinessSpec;
  connectionDetails?: ConnectionDetailSpec[];
}

export const objectConnector: Connector<ObjectParameters, ObjectObservation> = {
  async connect(mr, context): Promise<ExternalClient<ObjectParameters, ObjectObservation>> {
    const providerConfig = mr.spec.providerConfigRef?.name ?? 'default';
    const connection = await connectToCluster(providerConfig, context);
    return new ObjectClient(new RemoteCluster(connection, `target cluster (ProviderConfig "${providerConfig}")`, context.wake));
  },
};

class ObjectClient implements ExternalClient<ObjectParameters, ObjectObservation> {
  constructor(private readonly remote: RemoteCluster) {}

  async observe(mr: ObjectResource): Promise<Observation> {
    const desired = await this.desired(mr);
    const key = this.keyOf(desired);
    const live = await this.remote.read(mr, key);
    if (!live) {
      if (mr.metadata.deletionTimestamp) this.release(key, mr, desired);
      return { resourceExists: false, resourceUpToDate: false };
    }
    const mayUpdate = managementPoliciesOf(mr.spec).some((action) => action === '*' || action === 'Update');
    // Only an Object that may update its target asks the dry run: an Observe-only Object never
    // sends a write, not even a dry one, and needs no permission to patch.
    const upToDate = mayUpdate ? await this.remote.isUpToDate(mr, desired, live) : true;
    const spec = mr.spec as ObjectOnlySpec;
    return {
      ...this.observationOf(mr, live),
      resourceUpToDate: upToDate,
      diff: upToDate ? undefined : `${describeTarget(key)} differs from the manifest`,
      connectionDetails: await connectionDetailsOf(spec.connectionDetails, desired, (ref) => this.remote.read(mr, this.keyOf(ref))),
    };
  }

  async create(mr: ObjectResource): Promise<ExternalCreation<ObjectParameters, ObjectObservation>> {
    const desired = await this.desired(mr);
    const applied = await this.remote.apply(mr, desired);
    const spec = mr.spec as ObjectOnlySpec;
    return {
      externalName: applied.metadata!.name!,
      summary: `created ${describeTarget(this.keyOf(desired))} by server-side apply`,
      // The apply's answer is the object as it is now, unless connection details need other reads.
      observation: spec.connectionDetails?.length ? undefined : { ...this.observationOf(mr, applied), resourceUpToDate: true },
    };
  }

  async update(mr: ObjectResource): Promise<string> {
    const desired = await this.desired(mr);
    await this.remote.apply(mr, desired);
    return `applied the manifest to ${describeTarget(this.keyOf(desired))}`;
  }

  async delete(mr: ObjectResource): Promise<ExternalDeletion> {
    const desired = await this.desired(mr);
    const key = this.keyOf(desired);
    const gone = await this.remote.delete(desired);
    if (gone) this.release(key, mr, desired);
    return { summary: gone ? `${describeTarget(key)} is already gone` : `deleted ${describeTarget(key)}`, gone };
  }

  async protect(mr: ObjectResource, observed: Observation, inUse: boolean): Promise<string | undefined> {
    // The observation is sanitized, but its metadata (finalizers, resourceVersion) is whole.
    const live = observed.atProvider?.manifest as KubernetesObject | undefined;
    if (!live) return undefined;
    const key = this.keyOf(await this.desired(mr));
    return this.remote.run(`update the finalizers of ${describeTarget(key)}`, (api) => protectTarget(api, live, inUse));
  }

  /**
   * The manifest as it lands: a namespaced kind without a namespace goes to `default`, as
   * kubectl and provider-kubernetes put it, so it is looked for where it is.
   */
  private desired(mr: ObjectResource): Promise<DesiredObject> {
    return this.remote.placed(desiredObject(mr));
  }

  private keyOf(target: DesiredObject | TargetRef): TargetKey {
    return this.remote.keyOf(target);
  }

  private observationOf(mr: ObjectResource, live: KubernetesObject): Omit<Observation, 'resourceUpToDate'> {
    // Readiness looks at the object itself (a CEL query may read anything in it); status shows
    // the sanitized copy.
    const readiness = readinessOf((mr.spec as ObjectOnlySpec).readiness, live as Record<string, unknown>);
    return { resourceExists: true, ...readiness, atProvider: { manifest: observedManifest(live) } };
  }

  /** The Object and its target have parted: stop following what it read and forget what we knew. */
  private release(key: TargetKey, mr: ObjectResource, desired: DesiredObject): void {
    const sources = ((mr.spec as ObjectOnlySpec).connectionDetails ?? []).map((detail) => this.keyOf(detailSource(detail, desired)));
    this.remote.release(mr, [key, ...sources]);
  }
}
