// Wires EC2 SDK calls to the ExternalClient verbs for NAT gateways. Decisions live in
// convert.ts. A gateway takes minutes to become available and minutes to go away: observe
// reports the way there (Creating, Deleting) and no call here waits for it.
import {
  CreateNatGatewayCommand,
  DeleteNatGatewayCommand,
  DescribeNatGatewaysCommand,
  paginateDescribeNatGateways,
  type EC2PaginationConfiguration,
  type Filter,
  type NatGateway,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import { ClassifiedError } from '../../../../runtime/errors';
import type { ExternalClient, ExternalObservation, SweptObservation } from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { ABSENT, ec2Connector, present, requiredId, sweptByUid, uidFilter, withExternalNames, type Ec2Api } from '../ec2-api';
import {
  clientTokenFor,
  differences,
  earlierGateways,
  isDying,
  isGone,
  lateInitialize,
  readinessOf,
  toAtProvider,
  unavailableMessage,
} from './convert';
import { natGatewayApi, type NatGatewayObservation, type NatGatewayParameters } from './schema';

type NatGatewayResource = ManagedResource<NatGatewayParameters, NatGatewayObservation>;

export const natGatewayConnector = ec2Connector<NatGatewayParameters, NatGatewayObservation>((api) => new NatGatewayExternalClient(api));

export class NatGatewayExternalClient implements ExternalClient<NatGatewayParameters, NatGatewayObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: NatGatewayResource): Promise<ExternalObservation<NatGatewayParameters, NatGatewayObservation>> {
    const natGatewayId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!natGatewayId) return ABSENT;
    const gateway = await this.describe(natGatewayId);
    return gateway ? observation(mr, gateway) : ABSENT;
  }

  /** One DescribeNatGateways per 200 gateways, which report every field observe compares. */
  async observeMany(mrs: readonly NatGatewayResource[]): Promise<Map<string, SweptObservation<NatGatewayObservation>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const gateways = await this.ec2.describeMatching(
      'cannot describe NAT gateways',
      'nat-gateway-id',
      ids,
      paginateNatGateways,
      (p) => p.NatGateways,
    );
    return sweptByUid(named, new Map(gateways.map((gateway) => [gateway.NatGatewayId!, gateway])), observation);
  }

  async create(mr: NatGatewayResource) {
    // Two guards against a twin after an interrupted attempt: the uid tag CreateNatGateway
    // applies atomically (found here once DescribeNatGateways lists the gateway), and the
    // client token (which covers the moments before it does).
    const earlier = earlierGateways(await this.withUidTag(mr.metadata.uid), mr.metadata.uid);
    if (earlier.live) {
      const id = earlier.live.NatGatewayId!;
      return { externalName: id, summary: `found NAT gateway ${id} (${earlier.live.State}) made by an earlier attempt` };
    }
    const p = mr.spec.forProvider;
    const subnetId = requiredId(p.subnetId, 'subnetId');
    const isPublic = p.connectivityType !== 'private';
    const allocationId = isPublic ? requiredId(p.allocationId, 'allocationId') : undefined;
    const created = await this.ec2.call(`cannot create NAT gateway in subnet ${subnetId}`, (sdk) =>
      sdk.send(
        new CreateNatGatewayCommand({
          SubnetId: subnetId,
          AllocationId: allocationId,
          ConnectivityType: p.connectivityType,
          ClientToken: clientTokenFor(mr.metadata.uid, earlier.deadIds),
          TagSpecifications: [{ ResourceType: 'natgateway', Tags: mapToTags(desiredTags(natGatewayApi, mr)) }],
        }),
      ),
    );
    const gateway = created.NatGateway!;
    const id = gateway.NatGatewayId!;
    if (isDying(gateway)) {
      // The token is an old one whose dead gateway EC2 no longer lists; recording it would only
      // lead back here. EC2 forgets tokens in time.
      throw new ClassifiedError(
        'Transient',
        `EC2 answered the create with NAT gateway ${id}, an earlier one of this object that is ${gateway.State}`,
      );
    }
    const via = allocationId ? ` with address ${allocationId}` : ' (private)';
    return { externalName: id, summary: `created NAT gateway ${id} in subnet ${subnetId}${via}, ${p.region}; it is ${gateway.State}` };
  }

  async update(mr: NatGatewayResource): Promise<string> {
    const natGatewayId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const gateway = await this.describe(natGatewayId);
    if (!gateway || isGone(gateway)) return `NAT gateway ${natGatewayId} is gone; nothing to update`;
    const done = await this.ec2.syncTags(natGatewayId, desiredTags(natGatewayApi, mr), gateway.Tags);
    return `updated NAT gateway ${natGatewayId}: ${done.join('; ') || 'already up to date'}`;
  }

  /**
   * The engine calls delete on every pass until observe says the gateway is gone, minutes for a
   * NAT gateway; so a gateway already on its way out is left alone rather than asked again.
   */
  async delete(mr: NatGatewayResource): Promise<string> {
    const natGatewayId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!natGatewayId) return 'no NAT gateway was recorded; nothing to delete';
    const gateway = await this.describe(natGatewayId);
    if (!gateway || isGone(gateway)) return `NAT gateway ${natGatewayId} was already gone`;
    if (gateway.State === 'deleting') return `NAT gateway ${natGatewayId} is being deleted`;
    const deleted = await this.ec2.remove(`cannot delete NAT gateway ${natGatewayId}`, (sdk) =>
      sdk.send(new DeleteNatGatewayCommand({ NatGatewayId: natGatewayId })),
    );
    return deleted ? `deleting NAT gateway ${natGatewayId}` : `NAT gateway ${natGatewayId} was already gone`;
  }

  /** EC2 answers an unknown id with NatGatewayNotFound; moto with an empty list. */
  private describe(natGatewayId: string): Promise<NatGateway | undefined> {
    return this.ec2.find(
      `cannot describe NAT gateway ${natGatewayId}`,
      async (sdk) => (await sdk.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [natGatewayId] }))).NatGateways?.[0],
    );
  }

  private async withUidTag(uid: string): Promise<NatGateway[]> {
    const found = await this.ec2.call('cannot look for an earlier NAT gateway', (sdk) =>
      sdk.send(new DescribeNatGatewaysCommand({ Filter: uidFilter(uid) })),
    );
    return found.NatGateways ?? [];
  }
}

/** DescribeNatGateways names its filter parameter Filter, not Filters. */
const paginateNatGateways = (config: EC2PaginationConfiguration, input: { Filters: Filter[] }) =>
  paginateDescribeNatGateways(config, { Filter: input.Filters });

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: NatGatewayResource, gateway: NatGateway): ExternalObservation<NatGatewayParameters, NatGatewayObservation> {
  if (isGone(gateway)) return ABSENT;
  return present(mr, {
    tags: gateway.Tags,
    differences: differences(gateway, desiredTags(natGatewayApi, mr)),
    readiness: readinessOf(gateway),
    readinessMessage: unavailableMessage(gateway),
    atProvider: toAtProvider(gateway),
    lateInitialized: lateInitialize(mr.spec.forProvider, gateway),
  });
}
