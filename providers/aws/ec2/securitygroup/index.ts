// The SecurityGroup kind as the registry sees it: API, schemas, connector, poll rhythm and the
// VPC reference.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { vpcApi } from '../vpc/schema';
import { SecurityGroupObservation, SecurityGroupParameters, securityGroupApi } from './schema';

export const securityGroupKind: ManagedKind<SecurityGroupParameters, SecurityGroupObservation> = {
  api: securityGroupApi,
  forProvider: SecurityGroupParameters,
  atProvider: SecurityGroupObservation,
  connector: lazyConnector(async () => (await import('./client')).securityGroupConnector),
  // Only tags can drift, so a minute is plenty; a group is usable as soon as it exists.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // Its Delete call answers once it is gone: a deletion is one call, with no observe before it.
  deletesSynchronously: true,
  references: [{ field: 'vpcId', to: vpcApi }],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
