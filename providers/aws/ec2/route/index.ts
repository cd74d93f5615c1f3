// The Route kind as the registry sees it: API, schemas, connector, polling, references.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { internetGatewayApi } from '../internetgateway/schema';
import { natGatewayApi } from '../natgateway/schema';
import { routeTableApi } from '../routetable/schema';
import { RouteObservation, RouteParameters, routeApi } from './schema';

export const routeKind: ManagedKind<RouteParameters, RouteObservation> = {
  api: routeApi,
  forProvider: RouteParameters,
  atProvider: RouteObservation,
  connector: lazyConnector(async () => (await import('./client')).routeConnector),
  // A route is active as soon as CreateRoute returns; it drifts when someone repoints it or
  // its target disappears (blackhole), which the sweep notices within a minute.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  references: [
    { field: 'routeTableId', to: routeTableApi, required: true },
    { field: 'gatewayId', to: internetGatewayApi },
    { field: 'natGatewayId', to: natGatewayApi },
  ],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
