// The Object's external client: observe, create, update and delete one object in the cluster
// its ProviderConfig names, through the shared remote-cluster access (../remote/cluster.ts):
// reads from one shared watch per cluster and kind, which also wakes the Object when its
// target changes, and server-side applies with a field manager per Object.
import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  ConnectContext,
  Connector,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
} from '#core/external-client';
import { managementPoliciesOf, type ManagedResource } from '#core/managed-resource';
import { ClassifiedError } from '#core/errors';
import { connectToCluster, describeObjectConfig, type ConnectingObject } from '../cluster-connection';
import { RemoteCluster } from '../remote/cluster';
import { describeTarget, type DesiredObject } from '../remote/target';
import type { TargetKey } from '../target-watches';
import { connectionDetailsOf, detailSource, type ConnectionDetailSpec, type TargetRef } from './connection-details';
import { protectTarget } from './protect';
import { readinessOf, type ReadinessSpec } from './readiness';
import { observedManifest } from './sanitize';
import type { NamespacedObjectParameters } from './namespaced-schema';
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
    const { remote, reach } = await connectToTarget(mr, context);
    return new ObjectClient(remote, reach);
  },
};

/**
 * The target cluster the resource's provider config names, and what it may reach there: for
 * an Object, and for an ObservedObjectCollection, which observes through Objects.
 */
export async function connectToTarget(
  mr: ConnectingObject,
  context: ConnectContext,
): Promise<{ remote: RemoteCluster; reach: TargetReach }> {
  const providerConfig = describeObjectConfig(mr);
  const connection = await connectToCluster(mr, context);
  const remote = new RemoteCluster(connection, `target cluster (${providerConfig})`, context.wake);
  return { remote, reach: { restrictToNamespace: connection.restrictToNamespace, description: connection.description ?? providerConfig } };
}

class ObjectClient implements ExternalClient<ObjectParameters, ObjectObservation> {
  constructor(
    private readonly remote: RemoteCluster,
    private readonly reach: TargetReach,
  ) {}

  async observe(mr: ObjectResource): Promise<Observation> {
    // An Object whose target it may not reach can never have made anything there: when it is
    // being deleted, nothing stands in the way of its going.
    if (mr.metadata.deletionTimestamp && (await this.refusal(mr))) return { resourceExists: false, resourceUpToDate: false };
    const desired = await this.desired(mr);
    const key = this.keyOf(desired);
    const live = await this.remote.read(mr, key);
    if (!live) {
      // For an Object being deleted, absent is the target server's answer (RemoteCluster.read).
      if (mr.metadata.deletionTimestamp) this.release(key, mr, desired);
      return { resourceExists: false, resourceUpToDate: false };
    }
    // Being deleted, only existence matters: nothing is updated or published any more, so a
    // manifest the target refuses or a connection detail that names nothing cannot hold up
    // the delete (and leave the target behind once someone removes the finalizer by hand).
    // (The observed target stays in the answer: its in-use finalizer is taken off before the delete.)
    const observation = this.observationOf(mr, live);
    if (mr.metadata.deletionTimestamp) return { ...observation.observed, resourceUpToDate: true };
    // A readiness policy that can never be evaluated is a mistake in the spec: the pass fails,
    // and backs off, until the spec changes. (A create still reports it as Unavailable: the
    // target was made, and its next observe says why it cannot be Ready.)
    if (observation.invalidSpec) throw new ClassifiedError('InvalidInput', observation.readinessMessage!);
    const mayUpdate = managementPoliciesOf(mr.spec).some((action) => action === '*' || action === 'Update');
    // Only an Object that may update its target asks the dry run: an Observe-only Object never
    // sends a write, not even a dry one, and needs no permission to patch.
    const upToDate = mayUpdate ? await this.remote.isUpToDate(mr, desired, live) : true;
    const spec = mr.spec as ObjectOnlySpec;
    return {
      ...observation.observed,
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
      observation: spec.connectionDetails?.length ? undefined : { ...this.observationOf(mr, applied).observed, resourceUpToDate: true },
    };
  }

  async update(mr: ObjectResource): Promise<string> {
    const desired = await this.desired(mr);
    await this.remote.apply(mr, desired);
    return `applied the manifest to ${describeTarget(this.keyOf(desired))}`;
  }

  async delete(mr: ObjectResource): Promise<ExternalDeletion> {
    const refused = await this.refusal(mr);
    if (refused) return { summary: `nothing to delete: ${refused}`, gone: true };
    const desired = await this.desired(mr);
    const key = this.keyOf(desired);
    const outcome = await this.remote.delete(mr, desired, (mr.spec.forProvider as NamespacedObjectParameters).deletionPropagationPolicy);
    const gone = outcome !== 'deleting';
    if (gone) this.release(key, mr, desired);
    return { summary: outcome === 'already gone' ? `${describeTarget(key)} is already gone` : `deleted ${describeTarget(key)}`, gone };
  }

  async protect(mr: ObjectResource, observed: Observation, inUse: boolean): Promise<string | undefined> {
    // The observation is sanitized, but its metadata (finalizers, resourceVersion) is whole.
    const live = observed.atProvider?.manifest as KubernetesObject | undefined;
    if (!live) return undefined;
    const key = this.keyOf(await this.desired(mr));
    return this.remote.run(`update the finalizers of ${describeTarget(key)}`, (api) => protectTarget(api, live, inUse));
  }

  /**
   * The manifest as it lands, so it is looked for where it is: a namespaced kind without a
   * namespace goes to the Object's own namespace (a kubernetes.m.crossplane.io Object, as
   * `kubectl -n` would put it), or to `default` for a cluster-scoped Object, as kubectl does.
   * Upstream sets no namespace at all (nothing defaults it). Refused, before
   * any read or write, when the provider config may not reach it (see TargetReach).
   */
  private async desired(mr: ObjectResource): Promise<DesiredObject> {
    const desired = await this.remote.placed(desiredObject(mr), mr.metadata.namespace || 'default');
    await this.checkReach(desired);
    for (const detail of (mr.spec as ObjectOnlySpec).connectionDetails ?? []) await this.checkReach(detailSource(detail, desired));
    return desired;
  }

  /** Throws NotAuthorized when the provider config may not reach `target` (see TargetReach). */
  private async checkReach(target: DesiredObject | TargetRef): Promise<void> {
    const onlyNamespace = this.reach.restrictToNamespace;
    if (onlyNamespace === undefined) return;
    const ref = 'metadata' in target ? { ...target, namespace: target.metadata.namespace ?? '', name: target.metadata.name } : target;
    const what = describeTarget(ref);
    const where = `${this.reach.description} reaches only namespace ${onlyNamespace} of its cluster`;
    if (!(await this.remote.isNamespaced(ref.apiVersion, ref.kind))) {
      throw new ClassifiedError('NotAuthorized', `${where}: ${what} is cluster-scoped; nothing was read or written`);
    }
    if (ref.namespace !== onlyNamespace) {
      throw new ClassifiedError(
        'NotAuthorized',
        `${where}: ${what} is in namespace ${ref.namespace || '(none)'}; nothing was read or written`,
      );
    }
  }

  /** Why the provider config may not reach the Object's target, or undefined when it may. */
  private async refusal(mr: ObjectResource): Promise<string | undefined> {
    try {
      await this.desired(mr);
      return undefined;
    } catch (error) {
      if (error instanceof ClassifiedError && error.failureClass === 'NotAuthorized') return error.message;
      throw error;
    }
  }

  private keyOf(target: DesiredObject | TargetRef): TargetKey {
    return this.remote.keyOf(target);
  }

  private observationOf(
    mr: ObjectResource,
    live: KubernetesObject,
  ): { observed: Omit<Observation, 'resourceUpToDate'>; invalidSpec?: true; readinessMessage?: string } {
    // Readiness looks at the object itself (a CEL query may read anything in it); status shows
    // the sanitized copy.
    const { invalidSpec, ...readiness } = readinessOf((mr.spec as ObjectOnlySpec).readiness, live as Record<string, unknown>);
    const observed = { resourceExists: true, ...readiness, atProvider: { manifest: observedManifest(live) } };
    return { observed, invalidSpec, readinessMessage: readiness.readinessMessage };
  }

  /** The Object and its target have parted: stop following what it read and forget what we knew. */
  private release(key: TargetKey, mr: ObjectResource, desired: DesiredObject): void {
    const sources = ((mr.spec as ObjectOnlySpec).connectionDetails ?? []).map((detail) => this.keyOf(detailSource(detail, desired)));
    this.remote.release(mr, [key, ...sources]);
  }
}

/**
 * What the provider config lets an Object reach in its cluster. A namespaced ProviderConfig
 * that uses the worker's own identity (InjectedIdentity: the control cluster, with the
 * controller's rights) sets `restrictToNamespace` on its connection: its Objects may then reach
 * only namespaced objects of that namespace (their target and the objects their connection
 * details read), or a tenant would act in other tenants' namespaces with the controller's rights.
 */
export interface TargetReach {
  restrictToNamespace?: string;
  /** Names the provider config in messages. */
  description: string;
}
