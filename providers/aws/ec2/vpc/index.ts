import { lazyConnector, type ManagedKind } from '../../../../runtime/managed-kind';
import { VpcObservation, VpcParameters, vpcApi } from './schema';

export const vpcKind: ManagedKind<VpcParameters, VpcObservation> = {
  api: vpcApi,
  forProvider: VpcParameters,
  atProvider: VpcObservation,
  connector: lazyConnector(async () => (await import('./client')).vpcConnector),
  // A VPC rarely drifts; a minute balances drift detection against API calls. A pending VPC
  // usually becomes available within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
};
