// The KubernetesApplication's client. What it manages lives in the control cluster itself: the
// choice of a KubernetesCluster (create; the engine records it as the external name, and it is
// never made again) and the KubernetesApplicationResources made from the templates (update,
// delete). observe reads through the engine's watched lists of the control cluster, so that a
// cluster registered for a Pending application, or any change to one of its resources, wakes it
// at once. Writes, and the reads they are planned from, go to the API server: a write acts on
// what is there, never on a watch that may lag behind this application's own last writes.
import type { KubernetesObject } from '@kubernetes/client-node';
import { EXTERNAL_NAME } from '#core/annotations';
import { ClassifiedError } from '#core/errors';
import type {
  ConnectContext,
  ControlObjectKey,
  Connector,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
} from '#core/external-client';
import { loadKubeConfig } from '#runtime/kube-config';
import { apiVersionOf } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { PlainObjectApi } from '#runtime/plain-object-api';
import { TargetCalls } from '../../remote/calls';
import { KUBERNETES_CLUSTER_API_VERSION, kubernetesClusterApi, kubernetesClusterScope } from '../cluster';
import { CHILD_API_VERSION, CHILD_KIND, isControlledBy, type Application, type Child } from './children';
import { deletionOrder, describePlan, hasWork, planChildren, type ChildrenPlan } from './plan';
import { chooseCluster, describeSelector, matchesSelector, type ClusterCandidate } from './scheduling';
import { kubernetesApplicationApi, type ApplicationObservation, type KubernetesApplicationSpec } from './schema';

type ApplicationResource = ManagedResource<unknown, ApplicationObservation>;
type Observation = ExternalObservation<unknown, ApplicationObservation>;
type Scope = Omit<ControlObjectKey, 'name'>;

/** Objects of the control cluster, straight from its API server: what writes are planned from, and the writes. */
export interface ControlCluster {
  list(scope: Scope): Promise<Record<string, unknown>[]>;
  create(child: Child): Promise<void>;
  /** Fails when the child changed since it was read: its resourceVersion is the precondition. */
  replace(child: Child): Promise<void>;
  /** Deletes this very child (its uid is the precondition); false when it was gone already. */
  delete(child: Child): Promise<boolean>;
}

const FIELD_MANAGER = 'chronoplane-kubernetesapplication';

let controlCluster: ControlCluster | undefined;

export const kubernetesApplicationConnector: Connector<unknown, ApplicationObservation> = {
  async connect(_mr, context) {
    controlCluster ??= apiServer(PlainObjectApi.forConfig(loadKubeConfig()));
    return new ApplicationClient(context, controlCluster);
  },
};

export class ApplicationClient implements ExternalClient<unknown, ApplicationObservation> {
  constructor(
    private readonly context: ConnectContext,
    private readonly cluster: ControlCluster,
  ) {}

  async observe(mr: ApplicationResource): Promise<Observation> {
    const app = applicationOf(mr);
    if (mr.metadata.deletionTimestamp) return this.observeDeletion(mr, app);
    const templates = specOf(mr).resourceTemplates;
    const clusterName = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!clusterName) {
      const atProvider = { desiredResources: templates.length, submittedResources: 0 };
      return { resourceExists: false, resourceUpToDate: false, atProvider };
    }
    // Scheduled once and for all: clusters registered from now on do not concern it.
    this.context.forgetControlObjects?.(app.uid, kubernetesClusterScope(app.namespace));
    let plan = planChildren(app, templates, await this.watchedChildren(mr, app));
    // The watch may not show this application's own last writes yet: before it reports work to
    // do (and an update runs for nothing), the API server has the last word.
    if (hasWork(plan)) plan = planChildren(app, templates, await this.freshChildren(app));
    return {
      resourceExists: true,
      resourceUpToDate: !hasWork(plan),
      ...readinessOf(plan),
      diff: hasWork(plan) ? describePlan(plan) : undefined,
      atProvider: {
        clusterRef: {
          apiVersion: KUBERNETES_CLUSTER_API_VERSION,
          kind: kubernetesClusterApi.kind,
          namespace: app.namespace,
          name: clusterName,
        },
        desiredResources: plan.desired,
        submittedResources: plan.submitted,
      },
    };
  }

  /** Schedules: the first by name of the KubernetesClusters in the application's namespace that its clusterSelector matches. */
  async create(mr: ApplicationResource): Promise<ExternalCreation<unknown, ApplicationObservation>> {
    const app = applicationOf(mr);
    const selector = specOf(mr).clusterSelector;
    // Followed: registering (or labelling) a matching cluster wakes a Pending application at once.
    const matching = (cluster: Record<string, unknown>) =>
      matchesSelector(selector, (cluster as Partial<ClusterCandidate>).metadata?.labels);
    const clusters = await this.list(kubernetesClusterScope(app.namespace), mr, matching);
    const chosen = chooseCluster(clusters as unknown as ClusterCandidate[], selector);
    if (!chosen) {
      throw new ClassifiedError(
        'MissingConfiguration',
        `no KubernetesCluster in namespace ${app.namespace} matches clusterSelector ${describeSelector(selector)}; ` +
          'the application is scheduled as soon as one is registered',
      );
    }
    return { externalName: chosen.metadata.name, summary: `scheduled to KubernetesCluster ${app.namespace}/${chosen.metadata.name}` };
  }

  /** Creates, updates and deletes resources as the templates say; refuses (after the rest) names it does not control. */
  async update(mr: ApplicationResource): Promise<string> {
    const app = applicationOf(mr);
    const plan = planChildren(app, specOf(mr).resourceTemplates, await this.freshChildren(app));
    await settleAll([
      ...plan.create.map((child) => this.cluster.create(child)),
      ...plan.update.map((child) => this.cluster.replace(child)),
      ...plan.delete.map((child) => this.cluster.delete(child)),
    ]);
    if (plan.conflicts.length > 0) throw new ClassifiedError('InvalidInput', plan.conflicts.join('; '));
    return `${CHILD_KIND}s: ${describePlan(plan) || 'nothing to change'}`;
  }

  /** Deletes the resources in reverse waves: Namespaces and CRDs only once the others are gone. */
  async delete(mr: ApplicationResource): Promise<ExternalDeletion> {
    const app = applicationOf(mr);
    const children = (await this.freshChildren(app)).filter((c) => isControlledBy(c, app));
    if (children.length === 0) {
      this.context.forgetControlObjects?.(app.uid);
      return { summary: `no ${CHILD_KIND}s left`, gone: true };
    }
    const order = deletionOrder(children);
    await settleAll(order.now.map((child) => this.cluster.delete(child)));
    const deleted =
      order.now.length > 0
        ? `deleted ${namesOf(order.now)}`
        : `waiting for ${namesOf(order.first.length > 0 ? order.first : children)} to be deleted`;
    return { summary: order.later.length > 0 ? `${deleted}; then ${namesOf(order.later)}` : deleted };
  }

  /** While being deleted it exists as long as any of its resources does; then it lets go of what it followed. */
  private async observeDeletion(mr: ApplicationResource, app: Application): Promise<Observation> {
    let remaining = (await this.watchedChildren(mr, app)).filter((c) => isControlledBy(c, app));
    // Never let the application go on a watch that lags: that would leave its resources to the garbage collector, in no order.
    if (remaining.length === 0) remaining = (await this.freshChildren(app)).filter((c) => isControlledBy(c, app));
    if (remaining.length === 0) {
      this.context.forgetControlObjects?.(app.uid);
      return { resourceExists: false, resourceUpToDate: true };
    }
    return { resourceExists: true, resourceUpToDate: true, readiness: 'Deleting', readinessMessage: `waiting for ${namesOf(remaining)}` };
  }

  /** The application's resources, and any under its template names, followed: a change to one wakes it. */
  private async watchedChildren(mr: ApplicationResource, app: Application): Promise<Child[]> {
    const names = new Set(specOf(mr).resourceTemplates.map((t) => t.metadata.name));
    const concerns = (obj: Record<string, unknown>) => {
      const child = obj as unknown as Child;
      return child.metadata !== undefined && (isControlledBy(child, app) || names.has(child.metadata.name));
    };
    return (await this.list(childScope(app.namespace), mr, concerns)) as unknown as Child[];
  }

  private async freshChildren(app: Application): Promise<Child[]> {
    return (await this.cluster.list(childScope(app.namespace))) as unknown as Child[];
  }

  private list(scope: Scope, mr: ApplicationResource, wakesFor: (obj: Record<string, unknown>) => boolean) {
    return this.context.listControlObjects
      ? this.context.listControlObjects(scope, mr as ManagedResource, wakesFor)
      : this.cluster.list(scope);
  }
}

/**
 * Available once every template's resource is Submitted as the template says. Otherwise
 * Unavailable if a resource failed (its own Synced condition says why), else Creating: either
 * way it is looked at again when one of them changes.
 */
function readinessOf(plan: ChildrenPlan): Pick<Observation, 'readiness' | 'readinessMessage'> {
  if (plan.submitted === plan.desired) return { readiness: 'Available' };
  if (plan.failed.length > 0) {
    return { readiness: 'Unavailable', readinessMessage: `${CHILD_KIND}s failed: ${plan.failed.join(', ')} (see their Synced condition)` };
  }
  return { readiness: 'Creating', readinessMessage: `not submitted yet: ${plan.unsubmitted.join(', ')}` };
}

/** The engine's ManagedResource knows forProvider; this kind's spec is upstream's own. */
const specOf = (mr: ApplicationResource): KubernetesApplicationSpec => mr.spec as unknown as KubernetesApplicationSpec;

const applicationOf = (mr: ApplicationResource): Application => ({
  apiVersion: apiVersionOf(kubernetesApplicationApi),
  kind: kubernetesApplicationApi.kind,
  namespace: mr.metadata.namespace ?? '',
  name: mr.metadata.name,
  uid: mr.metadata.uid,
});

const childScope = (namespace: string): Scope => ({ apiVersion: CHILD_API_VERSION, kind: CHILD_KIND, namespace });

const namesOf = (children: readonly Child[]): string => children.map((c) => c.metadata.name).join(', ');

/** Runs every write to its end, then fails with the first failure: one refused write does not stop the others. */
async function settleAll(writes: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(writes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

function apiServer(objects: PlainObjectApi): ControlCluster {
  const calls = new TargetCalls('control cluster');
  const what = (child: Child) => `${CHILD_KIND} ${child.metadata.namespace}/${child.metadata.name}`;
  const asObject = (child: Child) => child as unknown as KubernetesObject;
  return {
    list: (scope) =>
      calls.run(`list ${scope.kind} in namespace ${scope.namespace}`, async () =>
        // Items of a list carry no apiVersion or kind.
        (await objects.list(scope.apiVersion, scope.kind, scope.namespace)).items.map((o) => ({
          ...o,
          apiVersion: scope.apiVersion,
          kind: scope.kind,
        })),
      ),
    create: (child) =>
      calls.run(`create ${what(child)}`, async () => void (await objects.create(asObject(child), undefined, undefined, FIELD_MANAGER))),
    replace: (child) =>
      calls.run(`update ${what(child)}`, async () => void (await objects.replace(asObject(child), undefined, undefined, FIELD_MANAGER))),
    delete: (child) =>
      calls.run(
        `delete ${what(child)}`,
        async () => {
          const preconditions = { uid: child.metadata.uid };
          await objects.delete(asObject(child), undefined, undefined, undefined, undefined, undefined, { preconditions });
          return true;
        },
        () => false,
      ),
  };
}
