// Which KubernetesCluster a KubernetesApplicationResource is scheduled to: the one its
// controlling KubernetesApplication was scheduled to (recorded in the application's
// crossplane.io/external-name), in the same namespace. Once known it is kept in the resource's
// own status.clusterRef and read from there: an application is never rescheduled, and a
// resource being deleted must still reach its cluster after its application is gone.
import { EXTERNAL_NAME } from '#core/annotations';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, ControlObjectKey } from '#core/external-client';
import { apiVersionOf } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { groupOf } from '#runtime/references/dependencies';
import { KUBERNETES_CLUSTER_API_VERSION, kubernetesClusterApi } from '../cluster';
import { kubernetesApplicationResourceApi, type ClusterReference } from './schema';
import { NOT_SCHEDULED, resourceStatus } from './status';

const APPLICATION = { apiVersion: apiVersionOf(kubernetesApplicationResourceApi), kind: 'KubernetesApplication' };

/** The resource is not scheduled (yet, or ever): its state stays Pending with this message. */
export class NotScheduled extends ClassifiedError {
  constructor(why: string) {
    super('MissingConfiguration', `${NOT_SCHEDULED}${why}`);
  }
}

/**
 * The cluster, or a NotScheduled error. Reading the application follows it (a later scheduling
 * wakes the resource); once scheduled the resource stops following it, so that the
 * application's own status writes do not wake all of its resources.
 */
export async function scheduledCluster(mr: ManagedResource<unknown, unknown>, context: ConnectContext): Promise<ClusterReference> {
  const recorded = resourceStatus.read((mr.status ?? {}) as Record<string, unknown>)?.clusterRef;
  if (recorded) return recorded;
  const namespace = mr.metadata.namespace ?? '';
  const controller = mr.metadata.ownerReferences?.find((o) => o.controller);
  if (!controller || controller.kind !== APPLICATION.kind || groupOf(controller.apiVersion) !== kubernetesApplicationResourceApi.group) {
    throw new NotScheduled(`KubernetesApplicationResource ${namespace}/${mr.metadata.name} is not controlled by a KubernetesApplication`);
  }
  if (!context.readControlObject) throw new Error('this worker cannot read objects of the control cluster');
  const key: ControlObjectKey = { ...APPLICATION, namespace, name: controller.name };
  const application = await context.readControlObject(key, mr as ManagedResource);
  const metadata = application?.metadata as { uid?: string; annotations?: Record<string, string> } | undefined;
  if (!metadata || metadata.uid !== controller.uid) throw new NotScheduled(`its KubernetesApplication ${controller.name} does not exist`);
  const cluster = metadata.annotations?.[EXTERNAL_NAME];
  if (!cluster) throw new NotScheduled(`its KubernetesApplication ${controller.name} is not scheduled to a KubernetesCluster yet`);
  context.forgetControlObjects?.(mr.metadata.uid, key);
  return { apiVersion: KUBERNETES_CLUSTER_API_VERSION, kind: kubernetesClusterApi.kind, namespace, name: cluster };
}
