// Wires EC2 SDK calls to the ExternalClient verbs for VPCs. Decisions live in convert.ts.
import {
  CreateVpcCommand,
  DeleteVpcCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  ModifyVpcAttributeCommand,
  paginateDescribeVpcs,
  type Vpc,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import type {
  CreateAttempt,
  ExternalClient,
  ExternalCreation,
  ExternalDeletion,
  ExternalObservation,
  SweptObservation,
} from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { ABSENT, ec2Connector, finishCreate, present, sweptByUid, uidFilter, withExternalNames, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, readinessOf, toAtProvider, type ObservedVpc } from './convert';
import { vpcApi, type VpcObservation, type VpcParameters } from './schema';

type VpcResource = ManagedResource<VpcParameters, VpcObservation>;

export const vpcConnector = ec2Connector<VpcParameters, VpcObservation>((api) => new VpcExternalClient(api));

export class VpcExternalClient implements ExternalClient<VpcParameters, VpcObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: VpcResource): Promise<ExternalObservation<VpcParameters, VpcObservation>> {
    const vpcId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!vpcId) return ABSENT;
    // While it is being deleted only its existence matters: the DNS attributes would cost two
    // calls a pass for nothing, so they count as the spec has them, as in a sweep.
    const observed = mr.metadata.deletionTimestamp ? await this.describeWithoutAttributes(vpcId, mr) : await this.describe(vpcId);
    return observed ? observation(mr, observed) : ABSENT;
  }

  /**
   * One DescribeVpcs per 200 VPCs. Their DNS attributes would take a DescribeVpcAttribute call
   * per VPC and attribute, so here they count as the spec has them (`unsweptFields` in
   * index.ts): only the VPC's own safety-net pass finds drift in them.
   */
  async observeMany(mrs: readonly VpcResource[]): Promise<Map<string, SweptObservation<VpcObservation>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const vpcs = await this.ec2.describeMatching('cannot describe VPCs', 'vpc-id', ids, paginateDescribeVpcs, (page) => page.Vpcs);
    return sweptByUid(named, new Map(vpcs.map((vpc) => [vpc.VpcId!, vpc])), (mr, vpc) => {
      const { enableDnsSupport, enableDnsHostnames } = mr.spec.forProvider;
      return observation(mr, { vpc, enableDnsSupport, enableDnsHostnames });
    });
  }

  async create(mr: VpcResource, attempt?: CreateAttempt): Promise<ExternalCreation<VpcParameters, VpcObservation>> {
    // A VPC has no client token, so an interrupted earlier attempt is found by the uid tag that
    // CreateVpc applies atomically; this is what keeps a retried create from making a twin.
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    if (earlier?.VpcId) {
      return { externalName: earlier.VpcId, summary: `found VPC ${earlier.VpcId} made by an earlier attempt` };
    }
    const p = mr.spec.forProvider;
    const created = await this.ec2.call('cannot create VPC', (sdk) =>
      sdk.send(
        new CreateVpcCommand({
          CidrBlock: p.cidrBlock,
          InstanceTenancy: p.instanceTenancy,
          TagSpecifications: [{ ResourceType: 'vpc', Tags: mapToTags(desiredTags(vpcApi, mr)) }],
        }),
      ),
    );
    const vpc = created.Vpc!;
    const vpcId = vpc.VpcId!;
    // The VPC exists now: a failed attribute call must not lose it.
    const attributes = await finishCreate(() => this.applyDnsAttributes(vpcId, p, {}));
    const summary = [`created VPC ${vpcId} (${p.cidrBlock}) in ${p.region}`, ...(attributes.complete ? [] : attributes.done)].join('; ');
    if (!attributes.complete) return { externalName: vpcId, summary };
    return {
      externalName: vpcId,
      summary,
      // CreateVpc answers with the VPC, its tags included, and the DNS attributes are what was
      // just set or EC2's documented defaults for a new VPC (support on, hostnames off).
      observation: observation(mr, {
        vpc,
        enableDnsSupport: p.enableDnsSupport ?? true,
        enableDnsHostnames: p.enableDnsHostnames ?? false,
      }),
    };
  }

  async update(mr: VpcResource): Promise<string> {
    const vpcId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const observed = await this.describe(vpcId);
    if (!observed) return `VPC ${vpcId} is gone; nothing to update`;
    const done = await this.applyDnsAttributes(vpcId, mr.spec.forProvider, observed);
    done.push(...(await this.ec2.syncTags(vpcId, desiredTags(vpcApi, mr), observed.vpc.Tags)));
    return `updated VPC ${vpcId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: VpcResource): Promise<ExternalDeletion> {
    const vpcId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!vpcId) return { summary: 'no VPC was recorded; nothing to delete', gone: true };
    const deleted = await this.ec2.remove(`cannot delete VPC ${vpcId}`, (sdk) => sdk.send(new DeleteVpcCommand({ VpcId: vpcId })));
    // DeleteVpc is synchronous: once it answers, the VPC is gone.
    return { summary: deleted ? `deleted VPC ${vpcId}` : `VPC ${vpcId} was already gone`, gone: true };
  }

  private async describe(vpcId: string): Promise<ObservedVpc | undefined> {
    const vpc = await this.describeVpc(vpcId);
    if (!vpc) return undefined;
    const [support, hostnames] = await this.ec2.call(`cannot describe attributes of VPC ${vpcId}`, (sdk) =>
      Promise.all([
        sdk.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsSupport' })),
        sdk.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' })),
      ]),
    );
    return { vpc, enableDnsSupport: support.EnableDnsSupport?.Value, enableDnsHostnames: hostnames.EnableDnsHostnames?.Value };
  }

  private async describeWithoutAttributes(vpcId: string, mr: VpcResource): Promise<ObservedVpc | undefined> {
    const vpc = await this.describeVpc(vpcId);
    const { enableDnsSupport, enableDnsHostnames } = mr.spec.forProvider;
    return vpc && { vpc, enableDnsSupport, enableDnsHostnames };
  }

  private describeVpc(vpcId: string): Promise<Vpc | undefined> {
    return this.ec2.find(
      `cannot describe VPC ${vpcId}`,
      async (sdk) => (await sdk.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs?.[0],
    );
  }

  private async findByUid(uid: string): Promise<Vpc | undefined> {
    const found = await this.ec2.call('cannot look for an earlier VPC', (sdk) =>
      sdk.send(new DescribeVpcsCommand({ Filters: uidFilter(uid) })),
    );
    return found.Vpcs?.[0];
  }

  /** EC2 takes one attribute per ModifyVpcAttribute call. */
  private async applyDnsAttributes(vpcId: string, p: VpcParameters, observed: Partial<ObservedVpc>): Promise<string[]> {
    const done: string[] = [];
    if (p.enableDnsSupport !== undefined && p.enableDnsSupport !== observed.enableDnsSupport) {
      await this.ec2.call('cannot set enableDnsSupport', (sdk) =>
        sdk.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsSupport: { Value: p.enableDnsSupport } })),
      );
      done.push(`enableDnsSupport=${p.enableDnsSupport}`);
    }
    if (p.enableDnsHostnames !== undefined && p.enableDnsHostnames !== observed.enableDnsHostnames) {
      await this.ec2.call('cannot set enableDnsHostnames', (sdk) =>
        sdk.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: p.enableDnsHostnames } })),
      );
      done.push(`enableDnsHostnames=${p.enableDnsHostnames}`);
    }
    return done;
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: VpcResource, observed: ObservedVpc): ExternalObservation<VpcParameters, VpcObservation> {
  return present(mr, {
    tags: observed.vpc.Tags,
    differences: differences(mr.spec.forProvider, observed, desiredTags(vpcApi, mr)),
    readiness: readinessOf(observed.vpc),
    atProvider: toAtProvider(observed),
    lateInitialized: lateInitialize(mr.spec.forProvider, observed),
  });
}
