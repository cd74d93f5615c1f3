import { describe, expect, it } from 'vitest';
import { differences, lateInitialize, readinessOf, toAtProvider } from './convert';
import { tagChanges, userTags } from '../../tags';
import type { VpcParameters } from './schema';

const spec: VpcParameters = { region: 'us-east-1', cidrBlock: '10.0.0.0/16', tags: { team: 'net' } };
const vpc = {
  VpcId: 'vpc-1',
  State: 'available' as const,
  OwnerId: '123',
  DhcpOptionsId: 'dopt-1',
  IsDefault: false,
  InstanceTenancy: 'default' as const,
  CidrBlockAssociationSet: [{ AssociationId: 'a-1', CidrBlock: '10.0.0.0/16', CidrBlockState: { State: 'associated' as const } }],
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: 'crossplane-name', Value: 'x' },
  ],
};
const observed = { vpc, enableDnsSupport: true, enableDnsHostnames: false };
const desiredTags = { team: 'net', 'crossplane-name': 'x' };

describe('VPC conversion', () => {
  it('maps DescribeVpcs output to atProvider', () => {
    expect(toAtProvider(observed)).toEqual({
      vpcId: 'vpc-1',
      state: 'available',
      ownerId: '123',
      dhcpOptionsId: 'dopt-1',
      isDefault: false,
      cidrBlockAssociationSet: [
        { associationId: 'a-1', cidrBlock: '10.0.0.0/16', cidrBlockState: { state: 'associated', statusMessage: undefined } },
      ],
    });
  });

  it('is ready only once EC2 says available', () => {
    expect(readinessOf(vpc)).toBe('Available');
    expect(readinessOf({ ...vpc, State: 'pending' })).toBe('Creating');
  });

  it('late-initializes only the fields the spec left empty', () => {
    expect(lateInitialize(spec, observed)).toEqual({ instanceTenancy: 'default', enableDnsSupport: true, enableDnsHostnames: false });
    expect(
      lateInitialize({ ...spec, instanceTenancy: 'default', enableDnsSupport: true, enableDnsHostnames: false }, observed),
    ).toBeUndefined();
  });

  it('is up to date when flags and tags match', () => {
    expect(differences(spec, observed, desiredTags)).toEqual([]);
  });

  it('reports each difference: flags, changed tags and tags added outside Chronoplane', () => {
    const drifted = { ...observed, enableDnsHostnames: true, vpc: { ...vpc, Tags: [...vpc.Tags, { Key: 'rogue', Value: '1' }] } };
    const diff = differences({ ...spec, enableDnsHostnames: false }, drifted, { ...desiredTags, team: 'platform' });
    expect(diff).toEqual(['enableDnsHostnames: want false, have true', 'tag team: want "platform"', 'tag rogue: not in spec']);
  });

  it('never removes tags AWS owns', () => {
    expect(tagChanges({ a: '1' }, { a: '1', 'aws:cloudformation:stack-id': 's' })).toEqual({ set: {}, remove: [] });
  });

  it('keeps users from overriding the system tags', () => {
    expect(userTags({ ...spec, tags: { team: 'net', 'crossplane-name': 'evil' } })).toEqual({ team: 'net' });
  });
});
