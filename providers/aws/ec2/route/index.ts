// The Route kind as the registry sees it: API, schemas, connector, polling, references.
import { lazyConnector, type ManagedKind } from '../../../../runtime/managed-kind';
import { internetGatewayApi } from '../internetgateway/schema';
import { routeTableApi } from '../routetable/schema';
import { RouteObservation, RouteParameters, routeApi } from './schema';

export const routeKind: ManagedKind<RouteParameters, RouteObservation> = {
  api: routeApi,
  forProvider: RouteParameters,
  atProvider: RouteObservation,
  connector: lazyConnector(async () => (await import('./client')).routeConnector),
  // A route is active as soon as CreateRoute returns; it drifts when someone repoints it or
  // its target disappears (blackhole), which a minute's polling notices soon enough.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
  references: [
    { field: 'routeTableId', to: routeTableApi, required: true },
    { field: 'gatewayId', to: internetGatewayApi },
  ],
};
