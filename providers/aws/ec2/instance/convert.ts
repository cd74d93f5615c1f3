// Pure conversions between EC2's view of an instance and ours: atProvider, readiness, late
// initialization, connection details, what differs, and the next step of an instance type
// change. No I/O here, so this is where most of the instance's unit tests live.
import { createHash } from 'node:crypto';
import type { Instance, Tag } from '@aws-sdk/client-ec2';
import type { ConnectionDetails, Readiness } from '#core/external-client';
import { tagDifferences } from '../../tags';
import type { InstanceObservation, InstanceParameters } from './schema';

/**
 * Set while Chronoplane has stopped the instance to change its type (value: the type it is
 * changing to), so that it starts again only an instance it stopped itself, even if the
 * worker is lost between the calls. Not the user's and not drift: left out of tag comparisons.
 */
export const RESIZE_TAG = 'chronoplane.io/stopped-to-change-instance-type';

export function toAtProvider(instance: Instance): InstanceObservation {
  return {
    instanceId: instance.InstanceId,
    state: instance.State?.Name,
    instanceType: instance.InstanceType,
    imageId: instance.ImageId,
    vpcId: instance.VpcId,
    subnetId: instance.SubnetId,
    privateIpAddress: instance.PrivateIpAddress,
    publicIpAddress: instance.PublicIpAddress,
    privateDnsName: instance.PrivateDnsName || undefined,
    publicDnsName: instance.PublicDnsName || undefined,
    launchTime: instance.LaunchTime?.toISOString(),
    availabilityZone: instance.Placement?.AvailabilityZone,
    tenancy: instance.Placement?.Tenancy,
  };
}

/** A terminated instance stays listed for about an hour, but it is gone for good. */
export const isTerminated = (instance: Instance): boolean => instance.State?.Name === 'terminated';

/** The states in which an instance still exists: what a retried create may adopt. */
export const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];

const resizingTo = (instance: Instance): string | undefined => instance.Tags?.find((t) => t.Key === RESIZE_TAG)?.Value;

export function readinessOf(spec: InstanceParameters, instance: Instance): { readiness: Readiness; readinessMessage?: string } {
  const state = instance.State?.Name;
  switch (state) {
    case 'running':
      return { readiness: 'Available' };
    case 'pending':
      return { readiness: 'Creating' };
    case 'shutting-down':
    case 'terminated':
      return { readiness: 'Deleting' };
    case 'stopping':
    case 'stopped': {
      if (resizingTo(instance) === undefined) {
        return {
          readiness: 'Unavailable',
          readinessMessage: `instance is ${state}; Chronoplane starts only an instance it stopped itself`,
        };
      }
      const message =
        instance.InstanceType === spec.instanceType
          ? `${state} to change instance type to ${spec.instanceType}; starting it again`
          : `${state} to change instance type from ${instance.InstanceType} to ${spec.instanceType}`;
      return { readiness: 'Unavailable', readinessMessage: message };
    }
    default:
      return { readiness: 'Unavailable', readinessMessage: `instance state is ${state ?? 'unknown'}` };
  }
}

/** Fields the user left empty that EC2 filled in; the spec adopts them so it shows the truth. */
export function lateInitialize(spec: InstanceParameters, instance: Instance): Partial<InstanceParameters> | undefined {
  const filled: Partial<InstanceParameters> = {};
  const zone = instance.Placement?.AvailabilityZone;
  const tenancy = instance.Placement?.Tenancy;
  if (spec.availabilityZone === undefined && zone) filled.availabilityZone = zone;
  if (spec.privateIpAddress === undefined && instance.PrivateIpAddress) filled.privateIpAddress = instance.PrivateIpAddress;
  if (spec.tenancy === undefined && (tenancy === 'default' || tenancy === 'dedicated' || tenancy === 'host')) filled.tenancy = tenancy;
  return Object.keys(filled).length > 0 ? filled : undefined;
}

/** How to reach the instance: observe publishes these to the connection Secret. */
export function connectionDetailsOf(instance: Instance): ConnectionDetails {
  const details: Record<string, string | undefined> = {
    instanceId: instance.InstanceId,
    privateIp: instance.PrivateIpAddress,
    publicIp: instance.PublicIpAddress,
    privateDnsName: instance.PrivateDnsName,
    publicDnsName: instance.PublicDnsName,
  };
  return Object.fromEntries(Object.entries(details).filter((entry): entry is [string, string] => !!entry[1]));
}

/** A digest to compare user data by: the value itself is never kept, shown or compared in the open. */
const userDataDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Whether the instance's user data (DescribeInstanceAttribute's base64) still is the Secret's
 * value; the answer is a difference for humans that never holds either value. undefined means
 * the same, or nothing to compare (no userDataSecretRef).
 */
export function userDataDifference(
  ref: InstanceParameters['userDataSecretRef'],
  namespace: string,
  desired: string | undefined,
  observedBase64: string | undefined,
): string | undefined {
  if (!ref) return undefined;
  if (desired === undefined) return `userData: Secret ${namespace}/${ref.name} has no key ${ref.key}, so it cannot be checked`;
  const observed = userDataDigest(Buffer.from(observedBase64 ?? '', 'base64'));
  return observed === userDataDigest(Buffer.from(desired, 'utf8')) ? undefined : USER_DATA_CHANGED;
}

export const USER_DATA_CHANGED = 'userData changed (needs replacement)';

/**
 * Every way EC2 differs from the spec, for humans; empty means up to date. Compared: what can
 * change in place (instance type, security groups, monitoring, metadata options, tags), an
 * unfinished type change, and the user data check (`userData`, from observe only).
 */
export function differences(
  spec: InstanceParameters,
  instance: Instance,
  desiredTags: Record<string, string>,
  userData?: string,
): string[] {
  const out: string[] = [];
  if (spec.instanceType !== instance.InstanceType) {
    out.push(`instanceType: want ${spec.instanceType}, have ${instance.InstanceType} (stop, change, start)`);
  } else if (resizingTo(instance) !== undefined) {
    out.push(`instanceType: the change to ${spec.instanceType} is not finished`);
  }
  if (spec.securityGroupIds !== undefined) {
    const have = (instance.SecurityGroups ?? []).map((g) => g.GroupId!).sort();
    const want = [...new Set(spec.securityGroupIds)].sort();
    if (have.join(',') !== want.join(',')) out.push(`securityGroupIds: want [${want.join(', ')}], have [${have.join(', ')}]`);
  }
  if (spec.monitoring !== undefined && spec.monitoring !== isMonitored(instance)) {
    out.push(`monitoring: want ${spec.monitoring}, have ${isMonitored(instance)}`);
  }
  out.push(...metadataDifferences(spec, instance));
  if (userData) out.push(userData);
  return [...out, ...tagDifferences(desiredTags, userTagsOf(instance.Tags))];
}

/** pending and enabled both mean detailed monitoring is (being) switched on. */
export const isMonitored = (instance: Instance): boolean => ['enabled', 'pending'].includes(instance.Monitoring?.State ?? 'disabled');

function metadataDifferences(spec: InstanceParameters, instance: Instance): string[] {
  const want = spec.metadataOptions ?? {};
  const have = instance.MetadataOptions ?? {};
  const pairs: [string, unknown, unknown][] = [
    ['httpTokens', want.httpTokens, have.HttpTokens],
    ['httpEndpoint', want.httpEndpoint, have.HttpEndpoint],
    ['httpPutResponseHopLimit', want.httpPutResponseHopLimit, have.HttpPutResponseHopLimit],
  ];
  return pairs.filter(([, w, h]) => w !== undefined && w !== h).map(([field, w, h]) => `metadataOptions.${field}: want ${w}, have ${h}`);
}

/** The instance's tags without the resize marker, which is Chronoplane's bookkeeping, not drift. */
export const userTagsOf = (tags: readonly Tag[] | undefined): Tag[] => (tags ?? []).filter((t) => t.Key !== RESIZE_TAG);

/**
 * The next step of EC2's rule for a type change (stop, modify, start), decided from the state
 * EC2 reports, so that update never waits: each call takes one step and the next pass the next.
 */
export type ResizeStep =
  | { step: 'none' }
  | { step: 'wait'; state: string }
  | { step: 'stop'; from: string; to: string }
  /** `start`: whether Chronoplane stopped it, and so starts it again. */
  | { step: 'modify'; from: string; to: string; start: boolean }
  | { step: 'start' }
  | { step: 'untag' };

export function resizeStep(spec: InstanceParameters, instance: Instance): ResizeStep {
  const from = instance.InstanceType ?? '';
  const to = spec.instanceType;
  const marked = resizingTo(instance) !== undefined;
  const state = instance.State?.Name ?? 'unknown';
  if (from === to) {
    if (!marked) return { step: 'none' };
    if (state === 'stopped') return { step: 'start' };
    return state === 'running' ? { step: 'untag' } : { step: 'wait', state };
  }
  if (state === 'running') return { step: 'stop', from, to };
  if (state === 'stopped') return { step: 'modify', from, to, start: marked };
  return { step: 'wait', state };
}
