// Wires EC2 SDK calls to the ExternalClient verbs for VPCs. Decisions live in convert.ts; the
// sweep, describe and the uid lookup are the common path's (client-base.ts), and observe adds
// the DNS attributes to it.
import {
  CreateVpcCommand,
  DeleteVpcCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  ModifyVpcAttributeCommand,
  paginateDescribeVpcs,
  type DescribeVpcsCommandOutput,
  type Vpc,
} from '@aws-sdk/client-ec2';
import type { CreateAttempt, ExternalCreation, ExternalDeletion, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ABSENT, ec2Connector, finishCreate, present, type Ec2Api } from '../ec2-api';
import { differences, lateInitialize, readinessOf, toAtProvider, type ObservedVpc } from './convert';
import { vpcApi, type VpcObservation, type VpcParameters } from './schema';

type VpcResource = ManagedResource<VpcParameters, VpcObservation>;

/**
 * DescribeVpcs cannot report the DNS attributes, which take a DescribeVpcAttribute call per VPC
 * and attribute. So what reads VPCs through this description (the sweep, and observe while a
 * VPC is being deleted) counts them as the spec has them (`unsweptFields` in index.ts): only
 * the VPC's own pass finds drift in them.
 */
const vpcs: Ec2KindDescription<VpcParameters, VpcObservation, Vpc, DescribeVpcsCommandOutput> = {
  noun: 'VPC',
  plural: 'VPCs',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeVpcsCommand({ VpcIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.Vpcs,
  idOf: (vpc) => vpc.VpcId,
  sweep: { filter: 'vpc-id', paginate: paginateDescribeVpcs },
  observation: (mr, vpc) => {
    const { enableDnsSupport, enableDnsHostnames } = mr.spec.forProvider;
    return observation(mr, { vpc, enableDnsSupport, enableDnsHostnames });
  },
};

export const vpcConnector = ec2Connector<VpcParameters, VpcObservation>((api) => new VpcExternalClient(api));

export class VpcExternalClient extends Ec2KindClient<VpcParameters, VpcObservation, Vpc> {
  constructor(ec2: Ec2Api) {
    super(ec2, vpcs);
  }

  /**
   * With the DNS attributes, two calls more. While the VPC is being deleted only its existence
   * matters, so it is observed as in a sweep.
   */
  override async observe(mr: VpcResource): Promise<ExternalObservation<VpcParameters, VpcObservation>> {
    if (mr.metadata.deletionTimestamp) return super.observe(mr);
    const vpcId = externalNameOf(mr);
    if (!vpcId) return ABSENT;
    const observed = await this.describeWithAttributes(vpcId);
    return observed ? observation(mr, observed) : ABSENT;
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
    const vpcId = externalNameOf(mr)!;
    const observed = await this.describeWithAttributes(vpcId);
    if (!observed) return `VPC ${vpcId} is gone; nothing to update`;
    const done = await this.applyDnsAttributes(vpcId, mr.spec.forProvider, observed);
    done.push(...(await this.ec2.syncTags(vpcId, desiredTags(vpcApi, mr), observed.vpc.Tags)));
    return `updated VPC ${vpcId}: ${done.join('; ') || 'already up to date'}`;
  }

  /** DeleteVpc is synchronous: once it answers, the VPC is gone. */
  delete(mr: VpcResource): Promise<ExternalDeletion> {
    return this.deleteAtOnce(mr, (sdk, vpcId) => sdk.send(new DeleteVpcCommand({ VpcId: vpcId })));
  }

  private async describeWithAttributes(vpcId: string): Promise<ObservedVpc | undefined> {
    const vpc = await this.describe(vpcId);
    if (!vpc) return undefined;
    const [support, hostnames] = await this.ec2.call(`cannot describe attributes of VPC ${vpcId}`, (sdk) =>
      Promise.all([
        sdk.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsSupport' })),
        sdk.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' })),
      ]),
    );
    return { vpc, enableDnsSupport: support.EnableDnsSupport?.Value, enableDnsHostnames: hostnames.EnableDnsHostnames?.Value };
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
