// The Subnet kind as the registry sees it: API, schemas, connector, polling and its VPC reference.
import { lazyConnector, type ManagedKind } from '../../../../runtime/managed-kind';
import { vpcApi } from '../vpc/schema';
import { SubnetObservation, SubnetParameters, subnetApi } from './schema';

export const subnetKind: ManagedKind<SubnetParameters, SubnetObservation> = {
  api: subnetApi,
  forProvider: SubnetParameters,
  atProvider: SubnetObservation,
  connector: lazyConnector(async () => (await import('./client')).subnetConnector),
  // A subnet rarely drifts; a minute balances drift detection against API calls. A pending
  // subnet usually becomes available within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
  references: [{ field: 'vpcId', to: vpcApi, required: true }],
};
