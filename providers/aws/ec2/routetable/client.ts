// Wires EC2 SDK calls to the ExternalClient verbs for route tables. Decisions live in convert.ts;
// observe, the sweep, describe and the uid lookup are the common path's (client-base.ts).
import {
  CreateRouteTableCommand,
  DeleteRouteTableCommand,
  DescribeRouteTablesCommand,
  paginateDescribeRouteTables,
  type DescribeRouteTablesCommandOutput,
  type RouteTable,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { CreateAttempt, ExternalDeletion, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, type Ec2KindDescription } from '../client-base';
import { ec2Connector, present, requiredId, type Ec2Api } from '../ec2-api';
import { differences, immutableDifferences, lateInitialize, readinessOf, toAtProvider } from './convert';
import { routeTableApi, type RouteTableObservation, type RouteTableParameters } from './schema';

type RouteTableResource = ManagedResource<RouteTableParameters, RouteTableObservation>;

/** DescribeRouteTables reports a table's routes and associations too, at most 100 tables a page. */
const routeTables: Ec2KindDescription<RouteTableParameters, RouteTableObservation, RouteTable, DescribeRouteTablesCommandOutput> = {
  noun: 'route table',
  plural: 'route tables',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeRouteTablesCommand({ RouteTableIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.RouteTables,
  idOf: (rt) => rt.RouteTableId,
  sweep: { filter: 'route-table-id', paginate: paginateDescribeRouteTables, pageSize: 100 },
  observation,
};

export const routeTableConnector = ec2Connector<RouteTableParameters, RouteTableObservation>((api) => new RouteTableExternalClient(api));

export class RouteTableExternalClient extends Ec2KindClient<RouteTableParameters, RouteTableObservation, RouteTable> {
  constructor(ec2: Ec2Api) {
    super(ec2, routeTables);
  }

  async create(mr: RouteTableResource, attempt?: CreateAttempt) {
    // CreateRouteTable applies the uid tag atomically, so an interrupted earlier attempt is
    // found by it; this is what keeps a retried create from making a twin.
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    if (earlier?.RouteTableId) {
      return { externalName: earlier.RouteTableId, summary: `found route table ${earlier.RouteTableId} made by an earlier attempt` };
    }
    const { region } = mr.spec.forProvider;
    const vpcId = requiredId(mr.spec.forProvider.vpcId, 'vpcId');
    const created = await this.ec2.call(`cannot create route table in VPC ${vpcId}`, (sdk) =>
      sdk.send(
        new CreateRouteTableCommand({
          VpcId: vpcId,
          TagSpecifications: [{ ResourceType: 'route-table', Tags: mapToTags(desiredTags(routeTableApi, mr)) }],
        }),
      ),
    );
    const routeTableId = created.RouteTable!.RouteTableId!;
    return { externalName: routeTableId, summary: `created route table ${routeTableId} in VPC ${vpcId} in ${region}` };
  }

  async update(mr: RouteTableResource): Promise<string> {
    return this.updateExisting(mr, async (routeTableId, rt) => {
      const fixed = immutableDifferences(mr.spec.forProvider, rt);
      if (fixed.length > 0) {
        throw new ClassifiedError(
          'InvalidInput',
          `route table ${routeTableId} cannot change ${fixed.join('; ')}: it is set at creation only`,
        );
      }
      return this.ec2.syncTags(routeTableId, desiredTags(routeTableApi, mr), rt.Tags);
    });
  }

  /** DeleteRouteTable answers once the table is gone. */
  delete(mr: RouteTableResource): Promise<ExternalDeletion> {
    return this.deleteAtOnce(mr, (sdk, routeTableId) => sdk.send(new DeleteRouteTableCommand({ RouteTableId: routeTableId })));
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: RouteTableResource, rt: RouteTable): ExternalObservation<RouteTableParameters, RouteTableObservation> {
  return present(mr, {
    tags: rt.Tags,
    differences: differences(mr.spec.forProvider, rt, desiredTags(routeTableApi, mr)),
    readiness: readinessOf(rt),
    atProvider: toAtProvider(rt),
    lateInitialized: lateInitialize(mr.spec.forProvider, rt),
  });
}
