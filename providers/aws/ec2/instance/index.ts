// The Instance kind as the registry sees it: API, schemas, connector, poll rhythm, its
// references (subnet, security groups, key pair) and two printer columns.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { keyPairApi } from '../keypair/schema';
import { securityGroupApi } from '../securitygroup/schema';
import { subnetApi } from '../subnet/schema';
import { InstanceObservation, InstanceParameters, instanceApi } from './schema';

export const instanceKind: ManagedKind<InstanceParameters, InstanceObservation> = {
  api: instanceApi,
  forProvider: InstanceParameters,
  atProvider: InstanceObservation,
  connector: lazyConnector(async () => (await import('./client')).instanceConnector),
  // An instance takes tens of seconds to start or stop, so a pending one is looked at every
  // 10 s; a settled one is watched by its kind's sweep every minute.
  poll: { steadySeconds: 60, pendingSeconds: 10, safetyNetSeconds: SAFETY_NET_SECONDS },
  references: [
    { field: 'subnetId', to: subnetApi },
    { field: 'securityGroupIds', to: securityGroupApi, list: true },
    { field: 'keyName', to: keyPairApi },
  ],
  // DescribeInstances leaves out the user data: a DescribeInstanceAttribute call per instance,
  // which swept every minute would cost 60 calls per instance an hour against a budget of 1.
  // The instance's own pass reads it, at least every safety net: 2 calls per 6 hours (0.33 an
  // hour) plus the sweep's 0.30 stays within the budget. A changed Secret wakes nothing, so
  // its drift is found by that pass.
  bulkObservation: ec2BulkObservation(['userDataSecretRef']),
  printerColumns: [
    { name: 'STATE', type: 'string', jsonPath: '.status.atProvider.state' },
    { name: 'PRIVATE-IP', type: 'string', jsonPath: '.status.atProvider.privateIpAddress' },
  ],
};
