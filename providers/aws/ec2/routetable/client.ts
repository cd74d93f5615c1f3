// Wires EC2 SDK calls to the ExternalClient verbs for route tables. Decisions live in convert.ts.
import { CreateRouteTableCommand, DeleteRouteTableCommand, DescribeRouteTablesCommand, type RouteTable } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import { ClassifiedError } from '../../../../runtime/errors';
import type {
  CreateAttempt,
  ExternalClient,
  ExternalDeletion,
  ExternalObservation,
  SweptObservation,
} from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import {
  ABSENT,
  describeRouteTablesMatching,
  ec2Connector,
  present,
  requiredId,
  sweptByUid,
  uidFilter,
  withExternalNames,
  type Ec2Api,
} from '../ec2-api';
import { differences, immutableDifferences, lateInitialize, readinessOf, toAtProvider } from './convert';
import { routeTableApi, type RouteTableObservation, type RouteTableParameters } from './schema';

type RouteTableResource = ManagedResource<RouteTableParameters, RouteTableObservation>;

export const routeTableConnector = ec2Connector<RouteTableParameters, RouteTableObservation>((api) => new RouteTableExternalClient(api));

export class RouteTableExternalClient implements ExternalClient<RouteTableParameters, RouteTableObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: RouteTableResource): Promise<ExternalObservation<RouteTableParameters, RouteTableObservation>> {
    const routeTableId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!routeTableId) return ABSENT;
    const rt = await this.describe(routeTableId);
    return rt ? observation(mr, rt) : ABSENT;
  }

  /** One DescribeRouteTables per 100 tables, routes and associations included. */
  async observeMany(mrs: readonly RouteTableResource[]): Promise<Map<string, SweptObservation<RouteTableObservation>>> {
    const named = withExternalNames(mrs);
    const tables = await describeRouteTablesMatching(
      this.ec2,
      'cannot describe route tables',
      'route-table-id',
      named.map((n) => n.id),
    );
    return sweptByUid(named, new Map(tables.map((rt) => [rt.RouteTableId!, rt])), observation);
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
    const routeTableId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const rt = await this.describe(routeTableId);
    if (!rt) return `route table ${routeTableId} is gone; nothing to update`;
    const fixed = immutableDifferences(mr.spec.forProvider, rt);
    if (fixed.length > 0) {
      throw new ClassifiedError(
        'InvalidInput',
        `route table ${routeTableId} cannot change ${fixed.join('; ')}: it is set at creation only`,
      );
    }
    const done = await this.ec2.syncTags(routeTableId, desiredTags(routeTableApi, mr), rt.Tags);
    return `updated route table ${routeTableId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: RouteTableResource): Promise<ExternalDeletion> {
    const routeTableId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!routeTableId) return { summary: 'no route table was recorded; nothing to delete', gone: true };
    const deleted = await this.ec2.remove(`cannot delete route table ${routeTableId}`, (sdk) =>
      sdk.send(new DeleteRouteTableCommand({ RouteTableId: routeTableId })),
    );
    return { summary: deleted ? `deleted route table ${routeTableId}` : `route table ${routeTableId} was already gone`, gone: true };
  }

  private describe(routeTableId: string): Promise<RouteTable | undefined> {
    return this.ec2.find(
      `cannot describe route table ${routeTableId}`,
      async (sdk) => (await sdk.send(new DescribeRouteTablesCommand({ RouteTableIds: [routeTableId] }))).RouteTables?.[0],
    );
  }

  private async findByUid(uid: string): Promise<RouteTable | undefined> {
    const found = await this.ec2.call('cannot look for an earlier route table', (sdk) =>
      sdk.send(new DescribeRouteTablesCommand({ Filters: uidFilter(uid) })),
    );
    return found.RouteTables?.[0];
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
