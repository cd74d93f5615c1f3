import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { VpcObservation, VpcParameters, vpcApi } from './schema';

export const vpcKind: ManagedKind<VpcParameters, VpcObservation> = {
  api: vpcApi,
  forProvider: VpcParameters,
  atProvider: VpcObservation,
  connector: lazyConnector(async () => (await import('./client')).vpcConnector),
  // A VPC rarely drifts; the sweep looks for drift every minute, and each VPC looks for
  // itself every six hours. A pending VPC usually becomes available within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // Its Delete call answers once it is gone: a deletion is one call, with no observe before it.
  deletesSynchronously: true,
  // DescribeVpcs leaves out the DNS attributes: a call per VPC and attribute, which swept every
  // minute would cost 120 calls per VPC an hour against a budget of 1. The safety net reads them.
  bulkObservation: ec2BulkObservation(['enableDnsSupport', 'enableDnsHostnames']),
};
