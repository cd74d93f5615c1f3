// The Subnet kind as the registry sees it: API, schemas, connector, polling and its VPC reference.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { vpcApi } from '../vpc/schema';
import { SubnetObservation, SubnetParameters, subnetApi } from './schema';

export const subnetKind: ManagedKind<SubnetParameters, SubnetObservation> = {
  api: subnetApi,
  forProvider: SubnetParameters,
  atProvider: SubnetObservation,
  connector: lazyConnector(async () => (await import('./client')).subnetConnector),
  // A subnet rarely drifts; its kind's sweep looks for drift every minute, and each subnet
  // looks for itself every six hours. A pending subnet usually becomes available within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // Its Delete call answers once it is gone: a deletion is one call, with no observe before it.
  deletesSynchronously: true,
  references: [{ field: 'vpcId', to: vpcApi, required: true }],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
