// Pure conversions between EC2's view of an internet gateway and ours: what goes into
// atProvider, which attachments to change, and what differs (the up-to-date check). No I/O
// here, so this is where most of the gateway's unit tests live.
//
// Nothing is late-initialized: an unset vpcId means "keep the gateway detached", so adopting
// the VPC EC2 reports would turn a drift the user should see into the user's own wish.
import type { InternetGateway } from '@aws-sdk/client-ec2';
import type { Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import type { InternetGatewayObservation, InternetGatewayParameters } from './schema';

export function toAtProvider(igw: InternetGateway): InternetGatewayObservation {
  return {
    internetGatewayId: igw.InternetGatewayId,
    ownerId: igw.OwnerId,
    attachments: igw.Attachments?.map((a) => ({ vpcId: a.VpcId, state: a.State })),
  };
}

/**
 * The VPCs the gateway is attached to or attaching to. A detaching attachment is on its way
 * out and needs no further call, so it does not count.
 */
export function attachedVpcIds(igw: InternetGateway | undefined): string[] {
  return (igw?.Attachments ?? []).filter((a) => a.VpcId && a.State !== 'detaching' && a.State !== 'detached').map((a) => a.VpcId!);
}

interface AttachmentPlan {
  /** VPCs to detach from: every one but the wanted VPC. */
  detach: string[];
  /** The VPC to attach to, when the gateway is not attached to it yet. */
  attach?: string;
}

export function attachmentPlan(spec: Pick<InternetGatewayParameters, 'vpcId'>, igw: InternetGateway | undefined): AttachmentPlan {
  const attached = attachedVpcIds(igw);
  const attach = spec.vpcId && !attached.includes(spec.vpcId) ? spec.vpcId : undefined;
  return { detach: attached.filter((vpcId) => vpcId !== spec.vpcId), ...(attach ? { attach } : {}) };
}

/**
 * Ready when it serves the wanted VPC: EC2 reports a finished attachment as `available`
 * (its documentation says `attached`; both are accepted). A gateway no VPC is wanted for is
 * ready as it is.
 */
export function readinessOf(spec: InternetGatewayParameters, igw: InternetGateway): Readiness {
  if (!spec.vpcId) return 'Available';
  // The SDK's AttachmentStatus type omits `available`, which is what EC2 actually sends.
  const state: string | undefined = igw.Attachments?.find((a) => a.VpcId === spec.vpcId)?.State;
  if (state === 'available' || state === 'attached') return 'Available';
  if (state === 'attaching') return 'Creating';
  return 'Unavailable';
}

/** Every way EC2 differs from the spec, for humans; empty means up to date. */
export function differences(spec: InternetGatewayParameters, igw: InternetGateway, desiredTags: Record<string, string>): string[] {
  const plan = attachmentPlan(spec, igw);
  const out: string[] = [];
  if (plan.attach || plan.detach.length > 0) {
    const attached = attachedVpcIds(igw);
    out.push(`vpcId: want ${spec.vpcId ?? 'detached'}, attached to ${attached.join(', ') || 'nothing'}`);
  }
  return [...out, ...tagDifferences(desiredTags, igw.Tags)];
}
