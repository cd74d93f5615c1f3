import type { ManagedKind } from '../../../../runtime/managed-kind';
import { vpcConnector } from './client';
import { VpcObservation, VpcParameters, vpcApi } from './schema';

export const vpcKind: ManagedKind<VpcParameters, VpcObservation> = {
  api: vpcApi,
  forProvider: VpcParameters,
  atProvider: VpcObservation,
  connector: vpcConnector,
  // A VPC rarely drifts; a minute balances drift detection against API calls. A pending VPC
  // usually becomes available within seconds.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
};
