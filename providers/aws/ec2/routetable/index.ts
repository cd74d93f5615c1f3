// The RouteTable kind as the registry sees it: API, schemas, connector, polling, references.
import { lazyConnector, type ManagedKind } from '../../../../runtime/managed-kind';
import { vpcApi } from '../vpc/schema';
import { RouteTableObservation, RouteTableParameters, routeTableApi } from './schema';

export const routeTableKind: ManagedKind<RouteTableParameters, RouteTableObservation> = {
  api: routeTableApi,
  forProvider: RouteTableParameters,
  atProvider: RouteTableObservation,
  connector: lazyConnector(async () => (await import('./client')).routeTableConnector),
  // A route table exists as soon as CreateRouteTable returns and rarely drifts; a minute keeps
  // its routes and associations in status reasonably fresh.
  poll: { steadySeconds: 60, pendingSeconds: 5 },
  references: [{ field: 'vpcId', to: vpcApi, required: true }],
};
