// Wires EC2 SDK calls to the ExternalClient verbs for internet gateways, whose vpcId is an
// attachment: created, moved and removed with Attach/DetachInternetGateway. Decisions live in
// convert.ts; observe, the sweep, describe and the uid lookup are the common path's (client-base.ts).
import {
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  DeleteInternetGatewayCommand,
  DescribeInternetGatewaysCommand,
  DetachInternetGatewayCommand,
  paginateDescribeInternetGateways,
  type DescribeInternetGatewaysCommandOutput,
  type InternetGateway,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { CreateAttempt, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ec2Connector, finishCreate, present, type Ec2Api } from '../ec2-api';
import { attachedVpcIds, attachmentPlan, differences, readinessOf, toAtProvider } from './convert';
import { internetGatewayApi, type InternetGatewayObservation, type InternetGatewayParameters } from './schema';

type P = InternetGatewayParameters;
type A = InternetGatewayObservation;
type InternetGatewayResource = ManagedResource<P, A>;

/** DescribeInternetGateways reports attachments and tags, all that observe compares. */
const internetGateways: Ec2KindDescription<P, A, InternetGateway, DescribeInternetGatewaysCommandOutput> = {
  noun: 'internet gateway',
  plural: 'internet gateways',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.InternetGateways,
  idOf: (igw) => igw.InternetGatewayId,
  sweep: { filter: 'internet-gateway-id', paginate: paginateDescribeInternetGateways },
  observation,
};

export const internetGatewayConnector = ec2Connector<P, A>((api) => new InternetGatewayExternalClient(api));

export class InternetGatewayExternalClient extends Ec2KindClient<P, A, InternetGateway> {
  constructor(ec2: Ec2Api) {
    super(ec2, internetGateways);
  }

  async create(mr: InternetGatewayResource, attempt?: CreateAttempt) {
    const p = mr.spec.forProvider;
    // No client token either: an interrupted earlier attempt is found by the uid tag that
    // CreateInternetGateway applies atomically, and is finished (attached) instead of twinned.
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    const igw = earlier ?? (await this.createGateway(mr));
    const igwId = igw.InternetGatewayId!;
    // The gateway exists now: a failed attach (a VPC that does not exist) must not lose it.
    const { done } = await finishCreate(() => this.applyAttachment(igwId, p.vpcId, igw));
    const origin = earlier
      ? `found internet gateway ${igwId} made by an earlier attempt`
      : `created internet gateway ${igwId} in ${p.region}`;
    return { externalName: igwId, summary: [origin, ...done].join('; ') };
  }

  async update(mr: InternetGatewayResource): Promise<string> {
    return this.updateExisting(mr, async (igwId, igw) => [
      ...(await this.applyAttachment(igwId, mr.spec.forProvider.vpcId, igw)),
      ...(await this.ec2.syncTags(igwId, desiredTags(internetGatewayApi, mr), igw.Tags)),
    ]);
  }

  async delete(mr: InternetGatewayResource): Promise<string> {
    const igwId = externalNameOf(mr);
    if (!igwId) return 'no internet gateway was recorded; nothing to delete';
    const igw = await this.describe(igwId);
    if (!igw) return `internet gateway ${igwId} was already gone`;
    // EC2 refuses to delete an attached gateway (DependencyViolation).
    const done = await this.applyAttachment(igwId, undefined, igw);
    const removed = await this.remove(igwId, (sdk) => sdk.send(new DeleteInternetGatewayCommand({ InternetGatewayId: igwId })));
    return [removed, ...done].join('; ');
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

  /** Detaches first: EC2 attaches a gateway to one VPC at a time. */
  private async applyAttachment(igwId: string, vpcId: string | undefined, igw: InternetGateway): Promise<string[]> {
    const plan = attachmentPlan({ vpcId }, igw);
    const done: string[] = [];
    for (const from of plan.detach) {
      // Gateway.NotAttached: already detached, by an earlier attempt or out of band, as wanted.
      await this.ec2.callUnless(`cannot detach internet gateway ${igwId} from VPC ${from}`, 'Gateway.NotAttached', (sdk) =>
        sdk.send(new DetachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: from })),
      );
      done.push(`detached from VPC ${from}`);
    }
    if (plan.attach) {
      const to = plan.attach;
      const action = `cannot attach internet gateway ${igwId} to VPC ${to}`;
      const attached = await this.ec2.callUnless(action, ALREADY_ASSOCIATED, (sdk) =>
        sdk.send(new AttachInternetGatewayCommand({ InternetGatewayId: igwId, VpcId: to })),
      );
      if (!attached) {
        // EC2 says the same when the gateway is attached to this VPC (a retried attach) and to
        // another one (a race); only the first is success.
        const now = attachedVpcIds(await this.describe(igwId));
        if (!now.includes(to)) {
          throw new ClassifiedError(
            'InvalidInput',
            `${action}: ${ALREADY_ASSOCIATED}: it is attached to ${now.length > 0 ? `VPC ${now.join(', ')}` : 'another VPC'}`,
          );
        }
      }
      done.push(`attached to VPC ${to}`);
    }
    return done;
  }
}

const ALREADY_ASSOCIATED = 'Resource.AlreadyAssociated';

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: InternetGatewayResource, igw: InternetGateway): ExternalObservation<P, A> {
  return present(mr, {
    tags: igw.Tags,
    differences: differences(mr.spec.forProvider, igw, desiredTags(internetGatewayApi, mr)),
    readiness: readinessOf(mr.spec.forProvider, igw),
    atProvider: toAtProvider(igw),
  });
}
