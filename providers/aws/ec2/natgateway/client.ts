// Wires EC2 SDK calls to the ExternalClient verbs for NAT gateways. Decisions live in
// convert.ts; observe, the sweep and describe are the common path's (client-base.ts). A gateway
// takes minutes to become available and minutes to go away: observe reports the way there
// (Creating, Deleting) and no call here waits for it.
import {
  CreateNatGatewayCommand,
  DeleteNatGatewayCommand,
  DescribeNatGatewaysCommand,
  paginateDescribeNatGateways,
  type DescribeNatGatewaysCommandOutput,
  type NatGateway,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ec2Connector, present, requiredId, type Ec2Api } from '../ec2-api';
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

/**
 * DescribeNatGateways reports every field observe compares. It names its filter parameter
 * Filter, not Filters; and EC2 answers an unknown id with NatGatewayNotFound, moto with an
 * empty list.
 */
const natGateways: Ec2KindDescription<NatGatewayParameters, NatGatewayObservation, NatGateway, DescribeNatGatewaysCommandOutput> = {
  noun: 'NAT gateway',
  plural: 'NAT gateways',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeNatGatewaysCommand({ NatGatewayIds: ids, Filter: filters })),
  resourcesIn: (answer) => answer.NatGateways,
  idOf: (gateway) => gateway.NatGatewayId,
  sweep: { filter: 'nat-gateway-id', paginate: (config, input) => paginateDescribeNatGateways(config, { Filter: input.Filters }) },
  observation,
  isGone,
};

export const natGatewayConnector = ec2Connector<NatGatewayParameters, NatGatewayObservation>((api) => new NatGatewayExternalClient(api));

export class NatGatewayExternalClient extends Ec2KindClient<NatGatewayParameters, NatGatewayObservation, NatGateway> {
  constructor(ec2: Ec2Api) {
    super(ec2, natGateways);
  }

  async create(mr: NatGatewayResource) {
    // Two guards against a twin after an interrupted attempt: the uid tag CreateNatGateway
    // applies atomically (found here once DescribeNatGateways lists the gateway), and the
    // client token (which covers the moments before it does).
    const earlier = earlierGateways(await this.taggedWith(mr.metadata.uid), mr.metadata.uid);
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
    return this.updateExisting(mr, (natGatewayId, gateway) =>
      this.ec2.syncTags(natGatewayId, desiredTags(natGatewayApi, mr), gateway.Tags),
    );
  }

  /**
   * The engine calls delete on every pass until observe says the gateway is gone, minutes for a
   * NAT gateway; so a gateway already on its way out is left alone rather than asked again.
   */
  async delete(mr: NatGatewayResource): Promise<string> {
    const natGatewayId = externalNameOf(mr);
    if (!natGatewayId) return 'no NAT gateway was recorded; nothing to delete';
    const gateway = await this.describe(natGatewayId);
    if (!gateway) return `NAT gateway ${natGatewayId} was already gone`;
    if (gateway.State === 'deleting') return `NAT gateway ${natGatewayId} is being deleted`;
    const deleted = await this.ec2.remove(`cannot delete NAT gateway ${natGatewayId}`, (sdk) =>
      sdk.send(new DeleteNatGatewayCommand({ NatGatewayId: natGatewayId })),
    );
    return deleted ? `deleting NAT gateway ${natGatewayId}` : `NAT gateway ${natGatewayId} was already gone`;
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: NatGatewayResource, gateway: NatGateway): ExternalObservation<NatGatewayParameters, NatGatewayObservation> {
  return present(mr, {
    tags: gateway.Tags,
    differences: differences(gateway, desiredTags(natGatewayApi, mr)),
    readiness: readinessOf(gateway),
    readinessMessage: unavailableMessage(gateway),
    atProvider: toAtProvider(gateway),
    lateInitialized: lateInitialize(mr.spec.forProvider, gateway),
  });
}
