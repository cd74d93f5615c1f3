// Wires EC2 SDK calls to the ExternalClient verbs for VPCs. Decisions live in convert.ts.
import {
  CreateTagsCommand,
  CreateVpcCommand,
  DeleteTagsCommand,
  DeleteVpcCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
  EC2Client,
  ModifyVpcAttributeCommand,
  type Vpc,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import type { Connector, ExternalClient, ExternalObservation } from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { ec2ClientFor } from '../../ec2-client';
import { toClassifiedAwsError } from '../../errors';
import { UID_TAG, crossplaneTags, mapToTags, tagsToMap } from '../../tags';
import { differences, lateInitialize, readinessOf, tagChanges, toAtProvider, userTags, type ObservedVpc } from './convert';
import { vpcApi, type VpcObservation, type VpcParameters } from './schema';

type VpcResource = ManagedResource<VpcParameters, VpcObservation>;

export const vpcConnector: Connector<VpcParameters, VpcObservation> = {
  async connect(mr, context) {
    return new VpcExternalClient(await ec2ClientFor(mr.spec.forProvider.region, mr.spec.providerConfigRef?.name, context));
  },
};

export class VpcExternalClient implements ExternalClient<VpcParameters, VpcObservation> {
  constructor(private readonly ec2: EC2Client) {}

  async observe(mr: VpcResource): Promise<ExternalObservation<VpcParameters, VpcObservation>> {
    const vpcId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!vpcId) return { resourceExists: false, resourceUpToDate: false };
    const observed = await this.describe(vpcId);
    if (!observed) return { resourceExists: false, resourceUpToDate: false };
    const diff = differences(mr.spec.forProvider, observed, this.desiredTags(mr));
    return {
      resourceExists: true,
      resourceUpToDate: diff.length === 0,
      readiness: readinessOf(observed.vpc),
      atProvider: toAtProvider(observed),
      lateInitialized: lateInitialize(mr.spec.forProvider, observed),
      diff: diff.join('; ') || undefined,
    };
  }

  async create(mr: VpcResource) {
    // A VPC has no client token, so an interrupted earlier attempt is found by the uid tag that
    // CreateVpc applies atomically; this is what keeps a retried create from making a twin.
    const earlier = await this.findByUid(mr.metadata.uid);
    if (earlier?.VpcId) {
      return { externalName: earlier.VpcId, summary: `found VPC ${earlier.VpcId} made by an earlier attempt` };
    }
    const p = mr.spec.forProvider;
    const created = await this.call('cannot create VPC', () =>
      this.ec2.send(
        new CreateVpcCommand({
          CidrBlock: p.cidrBlock,
          InstanceTenancy: p.instanceTenancy,
          TagSpecifications: [{ ResourceType: 'vpc', Tags: mapToTags(this.desiredTags(mr)) }],
        }),
      ),
    );
    const vpcId = created.Vpc!.VpcId!;
    await this.applyDnsAttributes(vpcId, p, {});
    return { externalName: vpcId, summary: `created VPC ${vpcId} (${p.cidrBlock}) in ${p.region}` };
  }

  async update(mr: VpcResource): Promise<string> {
    const vpcId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const observed = await this.describe(vpcId);
    if (!observed) return `VPC ${vpcId} is gone; nothing to update`;
    const done = await this.applyDnsAttributes(vpcId, mr.spec.forProvider, observed);
    const changes = tagChanges(this.desiredTags(mr), tagsToMap(observed.vpc.Tags));
    if (Object.keys(changes.set).length > 0) {
      await this.call('cannot tag VPC', () => this.ec2.send(new CreateTagsCommand({ Resources: [vpcId], Tags: mapToTags(changes.set) })));
      done.push(`set tags ${Object.keys(changes.set).join(', ')}`);
    }
    if (changes.remove.length > 0) {
      await this.call('cannot untag VPC', () =>
        this.ec2.send(new DeleteTagsCommand({ Resources: [vpcId], Tags: changes.remove.map((Key) => ({ Key })) })),
      );
      done.push(`removed tags ${changes.remove.join(', ')}`);
    }
    return `updated VPC ${vpcId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: VpcResource): Promise<string> {
    const vpcId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!vpcId) return 'no VPC was recorded; nothing to delete';
    try {
      await this.ec2.send(new DeleteVpcCommand({ VpcId: vpcId }));
    } catch (error) {
      if (isNotFound(error)) return `VPC ${vpcId} was already gone`;
      throw toClassifiedAwsError(`cannot delete VPC ${vpcId}`, error);
    }
    return `deleted VPC ${vpcId}`;
  }

  private desiredTags(mr: VpcResource): Record<string, string> {
    return { ...userTags(mr.spec.forProvider), ...crossplaneTags(vpcApi, mr) };
  }

  private async describe(vpcId: string): Promise<ObservedVpc | undefined> {
    let vpc: Vpc | undefined;
    try {
      vpc = (await this.ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs?.[0];
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw toClassifiedAwsError(`cannot describe VPC ${vpcId}`, error);
    }
    if (!vpc) return undefined;
    const [support, hostnames] = await this.call(`cannot describe attributes of VPC ${vpcId}`, () =>
      Promise.all([
        this.ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsSupport' })),
        this.ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' })),
      ]),
    );
    return { vpc, enableDnsSupport: support.EnableDnsSupport?.Value, enableDnsHostnames: hostnames.EnableDnsHostnames?.Value };
  }

  private async findByUid(uid: string): Promise<Vpc | undefined> {
    const found = await this.call('cannot look for an earlier VPC', () =>
      this.ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: `tag:${UID_TAG}`, Values: [uid] }] })),
    );
    return found.Vpcs?.[0];
  }

  /** EC2 takes one attribute per ModifyVpcAttribute call. */
  private async applyDnsAttributes(vpcId: string, p: VpcParameters, observed: Partial<ObservedVpc>): Promise<string[]> {
    const done: string[] = [];
    if (p.enableDnsSupport !== undefined && p.enableDnsSupport !== observed.enableDnsSupport) {
      await this.call('cannot set enableDnsSupport', () =>
        this.ec2.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsSupport: { Value: p.enableDnsSupport } })),
      );
      done.push(`enableDnsSupport=${p.enableDnsSupport}`);
    }
    if (p.enableDnsHostnames !== undefined && p.enableDnsHostnames !== observed.enableDnsHostnames) {
      await this.call('cannot set enableDnsHostnames', () =>
        this.ec2.send(new ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: p.enableDnsHostnames } })),
      );
      done.push(`enableDnsHostnames=${p.enableDnsHostnames}`);
    }
    return done;
  }

  private async call<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toClassifiedAwsError(action, error);
    }
  }
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name ?? '';
  return name === 'InvalidVpcID.NotFound' || name === 'InvalidVpcId.NotFound';
}
