// Table tests of the internet gateway's pure conversions: atProvider, the attachment plan,
// readiness and drift.
import { describe, expect, it } from 'vitest';
import type { InternetGateway } from '@aws-sdk/client-ec2';
import { attachedVpcIds, attachmentPlan, differences, readinessOf, toAtProvider } from './convert';
import type { InternetGatewayParameters } from './schema';

const tags = [
  { Key: 'team', Value: 'net' },
  { Key: 'crossplane-name', Value: 'x' },
];
const desiredTags = { team: 'net', 'crossplane-name': 'x' };
const gateway = (...attachments: [string, string][]): InternetGateway => ({
  InternetGatewayId: 'igw-1',
  OwnerId: '123',
  // A plain string: EC2 sends `available`, which the SDK's AttachmentStatus type lacks.
  Attachments: attachments.map(([VpcId, State]) => ({ VpcId, State: State as 'attached' })),
  Tags: tags,
});
const spec = (vpcId?: string): InternetGatewayParameters => ({ region: 'us-east-1', ...(vpcId ? { vpcId } : {}), tags: { team: 'net' } });

describe('internet gateway conversion', () => {
  it('maps DescribeInternetGateways output to atProvider', () => {
    expect(toAtProvider(gateway(['vpc-a', 'available']))).toEqual({
      internetGatewayId: 'igw-1',
      ownerId: '123',
      attachments: [{ vpcId: 'vpc-a', state: 'available' }],
    });
    expect(toAtProvider(gateway()).attachments).toEqual([]);
  });

  it('counts attaching and attached VPCs, not ones on their way out', () => {
    expect(
      attachedVpcIds(gateway(['a', 'available'], ['b', 'attached'], ['c', 'attaching'], ['d', 'detaching'], ['e', 'detached'])),
    ).toEqual(['a', 'b', 'c']);
    expect(attachedVpcIds(undefined)).toEqual([]);
  });

  it.each<[string, string | undefined, InternetGateway, { detach: string[]; attach?: string }]>([
    ['attach a new gateway', 'vpc-a', gateway(), { detach: [], attach: 'vpc-a' }],
    ['nothing to do when attached to the wanted VPC', 'vpc-a', gateway(['vpc-a', 'available']), { detach: [] }],
    ['move to another VPC', 'vpc-b', gateway(['vpc-a', 'available']), { detach: ['vpc-a'], attach: 'vpc-b' }],
    ['detach when no VPC is wanted', undefined, gateway(['vpc-a', 'available']), { detach: ['vpc-a'] }],
    ['stay detached', undefined, gateway(), { detach: [] }],
    ['re-attach after a detach in progress', 'vpc-a', gateway(['vpc-a', 'detaching']), { detach: [], attach: 'vpc-a' }],
  ])('attachment plan: %s', (_name, vpcId, igw, expected) => {
    expect(attachmentPlan({ vpcId }, igw)).toEqual(expected);
  });

  it.each<[string, string | undefined, InternetGateway, string]>([
    ['no VPC wanted', undefined, gateway(), 'Available'],
    ['no VPC wanted, attached anyway (a drift, not a readiness problem)', undefined, gateway(['vpc-a', 'available']), 'Available'],
    ['attached, as EC2 reports it', 'vpc-a', gateway(['vpc-a', 'available']), 'Available'],
    ['attached, as EC2 documents it', 'vpc-a', gateway(['vpc-a', 'attached']), 'Available'],
    ['attaching', 'vpc-a', gateway(['vpc-a', 'attaching']), 'Creating'],
    ['not attached', 'vpc-a', gateway(), 'Unavailable'],
    ['attached elsewhere', 'vpc-a', gateway(['vpc-b', 'available']), 'Unavailable'],
  ])('readiness: %s', (_name, vpcId, igw, readiness) => {
    expect(readinessOf(spec(vpcId), igw)).toBe(readiness);
  });

  it.each<[string, string | undefined, InternetGateway, Record<string, string>, string[]]>([
    ['in sync', 'vpc-a', gateway(['vpc-a', 'available']), desiredTags, []],
    ['in sync and detached', undefined, gateway(), desiredTags, []],
    ['not attached', 'vpc-a', gateway(), desiredTags, ['vpcId: want vpc-a, attached to nothing']],
    ['attached elsewhere', 'vpc-b', gateway(['vpc-a', 'available']), desiredTags, ['vpcId: want vpc-b, attached to vpc-a']],
    ['attached though unwanted', undefined, gateway(['vpc-a', 'available']), desiredTags, ['vpcId: want detached, attached to vpc-a']],
    [
      'tags changed and added outside Chronoplane',
      'vpc-a',
      { ...gateway(['vpc-a', 'available']), Tags: [...tags, { Key: 'rogue', Value: '1' }] },
      { ...desiredTags, team: 'platform' },
      ['tag team: want "platform"', 'tag rogue: not in spec'],
    ],
  ])('differences: %s', (_name, vpcId, igw, wantedTags, expected) => {
    expect(differences(spec(vpcId), igw, wantedTags)).toEqual(expected);
  });
});
