// The NATGateway kind as the registry sees it: API, schemas, connector, polling, and its
// references to a Subnet and to the Address whose allocation ID it uses.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { addressApi } from '../address/schema';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { subnetApi } from '../subnet/schema';
import { NatGatewayObservation, NatGatewayParameters, natGatewayApi } from './schema';

export const natGatewayKind: ManagedKind<NatGatewayParameters, NatGatewayObservation> = {
  api: natGatewayApi,
  forProvider: NatGatewayParameters,
  atProvider: NatGatewayObservation,
  connector: lazyConnector(async () => (await import('./client')).natGatewayConnector),
  // A gateway is pending for a minute or more after creation and deleting for a few more: both
  // are re-observed at the pending interval, every 2 s, so what waits on it (a route) starts
  // within moments of its turning available; a few dozen DescribeNatGateways per gateway, which
  // are few. Settled, only tags can drift; the sweep looks for that every minute.
  poll: { steadySeconds: 60, pendingSeconds: 2, safetyNetSeconds: SAFETY_NET_SECONDS },
  // The Address is held in use (not released) until the gateway is really deleted: observe
  // reports a deleting gateway as existing.
  references: [
    { field: 'subnetId', to: subnetApi, required: true },
    { field: 'allocationId', to: addressApi },
  ],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
