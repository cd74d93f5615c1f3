// The SecurityGroupRule kind as the registry sees it: API, schemas, connector, poll rhythm, and
// its two references (the group it belongs to, and the group it lets in or out).
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { securityGroupApi } from '../securitygroup/schema';
import { SecurityGroupRuleObservation, SecurityGroupRuleParameters, securityGroupRuleApi } from './schema';

export const securityGroupRuleKind: ManagedKind<SecurityGroupRuleParameters, SecurityGroupRuleObservation> = {
  api: securityGroupRuleApi,
  forProvider: SecurityGroupRuleParameters,
  atProvider: SecurityGroupRuleObservation,
  connector: lazyConnector(async () => (await import('./client')).securityGroupRuleConnector),
  // Only the description and tags can drift, so a minute is plenty; a rule is in force as soon as it exists.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  references: [
    { field: 'securityGroupId', to: securityGroupApi, required: true },
    { field: 'referencedGroupId', to: securityGroupApi },
  ],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
