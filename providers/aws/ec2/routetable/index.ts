// The RouteTable kind as the registry sees it: API, schemas, connector, polling, references.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { vpcApi } from '../vpc/schema';
import { RouteTableObservation, RouteTableParameters, routeTableApi } from './schema';

export const routeTableKind: ManagedKind<RouteTableParameters, RouteTableObservation> = {
  api: routeTableApi,
  forProvider: RouteTableParameters,
  atProvider: RouteTableObservation,
  connector: lazyConnector(async () => (await import('./client')).routeTableConnector),
  // A route table exists as soon as CreateRouteTable returns and rarely drifts; the sweep keeps
  // its routes and associations in status fresh within a minute.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  // Its Delete call answers once it is gone: a deletion is one call, with no observe before it.
  deletesSynchronously: true,
  references: [{ field: 'vpcId', to: vpcApi, required: true }],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
