// Wires EC2 SDK calls to the ExternalClient verbs for subnets. Decisions live in convert.ts;
// observe, the sweep, describe and the uid lookup are the common path's (client-base.ts).
import {
  CreateSubnetCommand,
  DeleteSubnetCommand,
  DescribeSubnetsCommand,
  ModifySubnetAttributeCommand,
  paginateDescribeSubnets,
  type DescribeSubnetsCommandOutput,
  type Subnet,
} from '@aws-sdk/client-ec2';
import type { CreateAttempt, ExternalDeletion, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, type Ec2KindDescription } from '../client-base';
import { ec2Connector, finishCreate, present, requiredId, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, readinessOf, toAtProvider } from './convert';
import { subnetApi, type SubnetObservation, type SubnetParameters } from './schema';

type SubnetResource = ManagedResource<SubnetParameters, SubnetObservation>;

/** DescribeSubnets reports every field observe compares, so the sweep misses none. */
const subnets: Ec2KindDescription<SubnetParameters, SubnetObservation, Subnet, DescribeSubnetsCommandOutput> = {
  noun: 'subnet',
  plural: 'subnets',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeSubnetsCommand({ SubnetIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.Subnets,
  idOf: (subnet) => subnet.SubnetId,
  sweep: { filter: 'subnet-id', paginate: paginateDescribeSubnets },
  observation,
};

export const subnetConnector = ec2Connector<SubnetParameters, SubnetObservation>((api) => new SubnetExternalClient(api));

export class SubnetExternalClient extends Ec2KindClient<SubnetParameters, SubnetObservation, Subnet> {
  constructor(ec2: Ec2Api) {
    super(ec2, subnets);
  }

  async create(mr: SubnetResource, attempt?: CreateAttempt) {
    // A subnet has no client token, so an interrupted earlier attempt is found by the uid tag
    // that CreateSubnet applies atomically; this is what keeps a retried create from making a twin.
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    if (earlier?.SubnetId) {
      return { externalName: earlier.SubnetId, summary: `found subnet ${earlier.SubnetId} made by an earlier attempt` };
    }
    const p = mr.spec.forProvider;
    const vpcId = requiredId(p.vpcId, 'vpcId');
    const created = await this.ec2.call(`cannot create subnet ${p.cidrBlock} in VPC ${vpcId}`, (sdk) =>
      sdk.send(
        new CreateSubnetCommand({
          VpcId: vpcId,
          CidrBlock: p.cidrBlock,
          AvailabilityZone: p.availabilityZone,
          TagSpecifications: [{ ResourceType: 'subnet', Tags: mapToTags(desiredTags(subnetApi, mr)) }],
        }),
      ),
    );
    const subnet = created.Subnet!;
    const subnetId = subnet.SubnetId!;
    // The subnet exists now: a failed attribute call must not lose it.
    const attributes = await finishCreate(() => this.applyAttributes(subnetId, p, subnet));
    const origin = `created subnet ${subnetId} (${p.cidrBlock}) in VPC ${vpcId}, ${subnet.AvailabilityZone ?? p.region}`;
    return { externalName: subnetId, summary: [origin, ...(attributes.complete ? [] : attributes.done)].join('; ') };
  }

  async update(mr: SubnetResource): Promise<string> {
    return this.updateExisting(mr, async (subnetId, subnet) => [
      ...(await this.applyAttributes(subnetId, mr.spec.forProvider, subnet)),
      ...(await this.ec2.syncTags(subnetId, desiredTags(subnetApi, mr), subnet.Tags)),
    ]);
  }

  /** DeleteSubnet answers once the subnet is gone. */
  delete(mr: SubnetResource): Promise<ExternalDeletion> {
    return this.deleteAtOnce(mr, (sdk, subnetId) => sdk.send(new DeleteSubnetCommand({ SubnetId: subnetId })));
  }

  /** EC2 takes one attribute per ModifySubnetAttribute call. */
  private async applyAttributes(subnetId: string, p: SubnetParameters, observed: Subnet): Promise<string[]> {
    const done: string[] = [];
    if (p.mapPublicIpOnLaunch !== undefined && p.mapPublicIpOnLaunch !== observed.MapPublicIpOnLaunch) {
      await this.ec2.call(`cannot set mapPublicIpOnLaunch of subnet ${subnetId}`, (sdk) =>
        sdk.send(new ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: p.mapPublicIpOnLaunch } })),
      );
      done.push(`mapPublicIpOnLaunch=${p.mapPublicIpOnLaunch}`);
    }
    if (p.assignIpv6AddressOnCreation !== undefined && p.assignIpv6AddressOnCreation !== observed.AssignIpv6AddressOnCreation) {
      await this.ec2.call(`cannot set assignIpv6AddressOnCreation of subnet ${subnetId}`, (sdk) =>
        sdk.send(
          new ModifySubnetAttributeCommand({ SubnetId: subnetId, AssignIpv6AddressOnCreation: { Value: p.assignIpv6AddressOnCreation } }),
        ),
      );
      done.push(`assignIpv6AddressOnCreation=${p.assignIpv6AddressOnCreation}`);
    }
    return done;
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: SubnetResource, subnet: Subnet): ExternalObservation<SubnetParameters, SubnetObservation> {
  return present(mr, {
    tags: subnet.Tags,
    differences: differences(mr.spec.forProvider, subnet, desiredTags(subnetApi, mr)),
    readiness: readinessOf(subnet),
    atProvider: toAtProvider(subnet),
    lateInitialized: lateInitialize(mr.spec.forProvider, subnet),
  });
}
