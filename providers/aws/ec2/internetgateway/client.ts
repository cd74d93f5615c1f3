// Wires EC2 SDK calls to the ExternalClient verbs for internet gateways, whose vpcId is an
// attachment: created, moved and removed with Attach/DetachInternetGateway. Decisions live in
// convert.ts.
import {
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  DeleteInternetGatewayCommand,
  DescribeInternetGatewaysCommand,
  DetachInternetGatewayCommand,
  type EC2Client,
  type InternetGateway,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import type { ExternalClient, ExternalObservation } from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { ec2Connector, uidFilter, type Ec2Api } from '../ec2-api';
import { attachedVpcIds, attachmentPlan, differences, readinessOf, toAtProvider } from './convert';
import { internetGatewayApi, type InternetGatewayObservation, type InternetGatewayParameters } from './schema';

type InternetGatewayResource = ManagedResource<InternetGatewayParameters, InternetGatewayObservation>;

export const internetGatewayConnector = ec2Connector<InternetGatewayParameters, InternetGatewayObservation>(
  (api) => new InternetGatewayExternalClient(api),
);

export class InternetGatewayExternalClient implements ExternalClient<InternetGatewayParameters, InternetGatewayObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: InternetGatewayResource): Promise<ExternalObservation<InternetGatewayParameters, InternetGatewayObservation>> {
    const igwId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!igwId) return { resourceExists: false, resourceUpToDate: false };
    const igw = await this.describe(igwId);
    if (!igw) return { resourceExists: false, resourceUpToDate: false };
    const diff = differences(mr.spec.forProvider, igw, desiredTags(internetGatewayApi, mr));
    return {
      resourceExists: true,
      resourceUpToDate: diff.length === 0,
      readiness: readinessOf(mr.spec.forProvider, igw),
      atProvider: toAtProvider(igw),
      diff: diff.join('; ') || undefined,
    };
  }

  async create(mr: InternetGatewayResource) {
    const p = mr.spec.forProvider;
    // No client token either: an interrupted earlier attempt is found by the uid tag that
    // CreateInternetGateway applies atomically, and is finished (attached) instead of twinned.
    const earlier = await this.findByUid(mr.metadata.uid);
    const igw = earlier ?? (await this.createGateway(mr));
    const igwId = igw.InternetGatewayId!;
    const done = await this.applyAttachment(igwId, p.vpcId, igw);
    const origin = earlier
      ? `found internet gateway ${igwId} made by an earlier attempt`
      : `created internet gateway ${igwId} in ${p.region}`;
    return { externalName: igwId, summary: [origin, ...done].join('; ') };
  }

  async update(mr: InternetGatewayResource): Promise<string> {
    const igwId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const igw = await this.describe(igwId);
    if (!igw) return `internet gateway ${igwId} is gone; nothing to update`;
    const done = await this.applyAttachment(igwId, mr.spec.forProvider.vpcId, igw);
    done.push(...(await this.ec2.syncTags(igwId, desiredTags(internetGatewayApi, mr), igw.Tags)));
    return `updated internet gateway ${igwId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: InternetGatewayResource): Promise<string> {
    const igwId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!igwId) return 'no internet gateway was recorded; nothing to delete';
    const igw = await this.describe(igwId);
    if (!igw) return `internet gateway ${igwId} was already gone`;
    // EC2 refuses to delete an attached gateway (DependencyViolation).
    const done = await this.applyAttachment(igwId, undefined, igw);
    const deleted = await this.ec2.remove(`cannot delete internet gateway ${igwId}`, (sdk) =>
      sdk.send(new DeleteInternetGatewayCommand({ InternetGatewayId: igwId })),
    );
    return [deleted ? `deleted internet gateway ${igwId}` : `internet gateway ${igwId} was already gone`, ...done].join('; ');
  }

  private async createGateway(mr: InternetGatewayResource): Promise<InternetGateway> {
    const created = await this.ec2.call('cannot create internet gateway', (sdk) =>
      sdk.send(
        new CreateInternetGatewayCommand({
          TagSpecifications: [{ ResourceType: 'internet-gateway', Tags: mapToTags(desiredTags(internetGatewayApi, mr)) }],
        }),
      ),
    );
    return created.InternetGateway!;
  }

  private async describe(igwId: string): Promise<InternetGateway | undefined> {
    return this.ec2.find(`cannot describe internet gateway ${igwId}`, (sdk) => describeWith(sdk, igwId));
  }

  private async findByUid(uid: string): Promise<InternetGateway | undefined> {
    const found = await this.ec2.call('cannot look for an earlier internet gateway', (sdk) =>
      sdk.send(new DescribeInternetGatewaysCommand({ Filters: uidFilter(uid) })),
    );
    return found.InternetGateways?.[0];
  }

  /** Detaches first: EC2 attaches a gateway to one VPC at a time. */
  private async applyAttachment(igwId: string, vpcId: string | undefined, igw: InternetGateway): Promise<string[]> {
    const plan = attachmentPlan({ vpcId }, igw);
    const done: string[] = [];
    for (const from of plan.detach) {
      await this.ec2.call(`cannot detach internet gateway ${igwId} from VPC ${from}`, async (sdk) => {
        try {
          await sdk.send(new DetachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: from }));
        } catch (error) {
          // Already detached, by an earlier attempt or out of band: the wanted outcome.
          if (codeOf(error) !== 'Gateway.NotAttached') throw error;
        }
      });
      done.push(`detached from VPC ${from}`);
    }
    if (plan.attach) {
      const to = plan.attach;
      await this.ec2.call(`cannot attach internet gateway ${igwId} to VPC ${to}`, async (sdk) => {
        try {
          await sdk.send(new AttachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: to }));
        } catch (error) {
          // EC2 says the same when the gateway is attached to this VPC (a retried attach) and to
          // another one (a race); only the first is success.
          if (codeOf(error) !== 'Resource.AlreadyAssociated' || !attachedVpcIds(await describeWith(sdk, igwId)).includes(to)) throw error;
        }
      });
      done.push(`attached to VPC ${to}`);
    }
    return done;
  }
}

const codeOf = (error: unknown): string | undefined => (error as { name?: string } | undefined)?.name;

async function describeWith(sdk: EC2Client, igwId: string): Promise<InternetGateway | undefined> {
  return (await sdk.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: [igwId] }))).InternetGateways?.[0];
}
