// Wires EC2 SDK calls to the ExternalClient verbs for subnets. Decisions live in convert.ts.
import {
  CreateSubnetCommand,
  DeleteSubnetCommand,
  DescribeSubnetsCommand,
  ModifySubnetAttributeCommand,
  paginateDescribeSubnets,
  type Subnet,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import type {
  CreateAttempt,
  ExternalClient,
  ExternalDeletion,
  ExternalObservation,
  SweptObservation,
} from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { ABSENT, ec2Connector, finishCreate, present, requiredId, sweptByUid, uidFilter, withExternalNames, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, readinessOf, toAtProvider } from './convert';
import { subnetApi, type SubnetObservation, type SubnetParameters } from './schema';

type SubnetResource = ManagedResource<SubnetParameters, SubnetObservation>;

export const subnetConnector = ec2Connector<SubnetParameters, SubnetObservation>((api) => new SubnetExternalClient(api));

export class SubnetExternalClient implements ExternalClient<SubnetParameters, SubnetObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: SubnetResource): Promise<ExternalObservation<SubnetParameters, SubnetObservation>> {
    const subnetId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!subnetId) return ABSENT;
    const subnet = await this.describe(subnetId);
    return subnet ? observation(mr, subnet) : ABSENT;
  }

  /** One DescribeSubnets per 200 subnets, which report every field observe compares. */
  async observeMany(mrs: readonly SubnetResource[]): Promise<Map<string, SweptObservation<SubnetObservation>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const subnets = await this.ec2.describeMatching('cannot describe subnets', 'subnet-id', ids, paginateDescribeSubnets, (p) => p.Subnets);
    return sweptByUid(named, new Map(subnets.map((subnet) => [subnet.SubnetId!, subnet])), observation);
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
    const subnetId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const subnet = await this.describe(subnetId);
    if (!subnet) return `subnet ${subnetId} is gone; nothing to update`;
    const done = await this.applyAttributes(subnetId, mr.spec.forProvider, subnet);
    done.push(...(await this.ec2.syncTags(subnetId, desiredTags(subnetApi, mr), subnet.Tags)));
    return `updated subnet ${subnetId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: SubnetResource): Promise<ExternalDeletion> {
    const subnetId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!subnetId) return { summary: 'no subnet was recorded; nothing to delete', gone: true };
    const deleted = await this.ec2.remove(`cannot delete subnet ${subnetId}`, (sdk) =>
      sdk.send(new DeleteSubnetCommand({ SubnetId: subnetId })),
    );
    return { summary: deleted ? `deleted subnet ${subnetId}` : `subnet ${subnetId} was already gone`, gone: true };
  }

  private async describe(subnetId: string): Promise<Subnet | undefined> {
    return this.ec2.find(
      `cannot describe subnet ${subnetId}`,
      async (sdk) => (await sdk.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] }))).Subnets?.[0],
    );
  }

  private async findByUid(uid: string): Promise<Subnet | undefined> {
    const found = await this.ec2.call('cannot look for an earlier subnet', (sdk) =>
      sdk.send(new DescribeSubnetsCommand({ Filters: uidFilter(uid) })),
    );
    return found.Subnets?.[0];
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
