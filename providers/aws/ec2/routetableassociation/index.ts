// The RouteTableAssociation kind as the registry sees it: API, schemas, connector, polling, references.
import { lazyConnector, type ManagedKind } from '#core/managed-kind';
import { SAFETY_NET_SECONDS, ec2BulkObservation } from '../bulk-observation';
import { routeTableApi } from '../routetable/schema';
import { subnetApi } from '../subnet/schema';
import { RouteTableAssociationObservation, RouteTableAssociationParameters, routeTableAssociationApi } from './schema';

export const routeTableAssociationKind: ManagedKind<RouteTableAssociationParameters, RouteTableAssociationObservation> = {
  api: routeTableAssociationApi,
  forProvider: RouteTableAssociationParameters,
  atProvider: RouteTableAssociationObservation,
  connector: lazyConnector(async () => (await import('./client')).routeTableAssociationConnector),
  // An association settles within seconds of AssociateRouteTable; afterwards only an
  // out-of-band disassociation or replacement changes it.
  poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: SAFETY_NET_SECONDS },
  references: [
    { field: 'routeTableId', to: routeTableApi, required: true },
    { field: 'subnetId', to: subnetApi },
  ],
  // The sweep reads every field observe compares; the safety net only covers a failed sweep.
  bulkObservation: ec2BulkObservation(),
};
