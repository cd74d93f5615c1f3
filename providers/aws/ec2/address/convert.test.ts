// Table tests of the Elastic IP address's pure conversions: atProvider, late init and drift.
import { describe, expect, it } from 'vitest';
import type { Address } from '@aws-sdk/client-ec2';
import { differences, lateInitialize, toAtProvider } from './convert';
import type { AddressParameters } from './schema';

const spec: AddressParameters = { region: 'us-east-1', domain: 'vpc', tags: { team: 'net' } };
const address: Address = {
  AllocationId: 'eipalloc-1',
  PublicIp: '198.51.100.7',
  Domain: 'vpc',
  PublicIpv4Pool: 'amazon',
  NetworkBorderGroup: 'us-east-1',
  Tags: [
    { Key: 'team', Value: 'net' },
    { Key: 'crossplane-name', Value: 'x' },
  ],
};
const desiredTags = { team: 'net', 'crossplane-name': 'x' };

describe('address conversion', () => {
  it('maps an unassociated address to atProvider, leaving out moto\u2019s empty strings', () => {
    expect(toAtProvider({ ...address, InstanceId: '', NetworkInterfaceId: '' })).toEqual({
      allocationId: 'eipalloc-1',
      publicIp: '198.51.100.7',
      domain: 'vpc',
      associationId: undefined,
      instanceId: undefined,
      networkInterfaceId: undefined,
      networkInterfaceOwnerId: undefined,
      privateIpAddress: undefined,
      publicIpv4Pool: 'amazon',
      networkBorderGroup: 'us-east-1',
    });
  });

  it('maps the association of an address a NAT gateway uses', () => {
    const associated: Address = {
      ...address,
      AssociationId: 'eipassoc-1',
      NetworkInterfaceId: 'eni-1',
      NetworkInterfaceOwnerId: '123456789012',
      PrivateIpAddress: '10.0.0.9',
    };
    expect(toAtProvider(associated)).toMatchObject({
      associationId: 'eipassoc-1',
      networkInterfaceId: 'eni-1',
      networkInterfaceOwnerId: '123456789012',
      privateIpAddress: '10.0.0.9',
    });
  });

  it('late-initializes only the fields the spec left empty', () => {
    expect(lateInitialize({ region: 'us-east-1' }, address)).toEqual({
      domain: 'vpc',
      publicIpv4Pool: 'amazon',
      networkBorderGroup: 'us-east-1',
    });
    expect(lateInitialize({ ...spec, publicIpv4Pool: 'amazon' }, address)).toEqual({ networkBorderGroup: 'us-east-1' });
    expect(lateInitialize({ ...spec, publicIpv4Pool: 'amazon', networkBorderGroup: 'us-east-1' }, address)).toBeUndefined();
    // moto reports neither pool nor border group: nothing to adopt.
    expect(lateInitialize(spec, { ...address, PublicIpv4Pool: undefined, NetworkBorderGroup: undefined })).toBeUndefined();
  });

  it.each<[string, Partial<Address>, Record<string, string>, string[]]>([
    ['in sync', {}, desiredTags, []],
    ['an association is not drift', { AssociationId: 'eipassoc-1', NetworkInterfaceId: 'eni-1' }, desiredTags, []],
    [
      'tags changed and added outside Chronoplane',
      { Tags: [...address.Tags!, { Key: 'rogue', Value: '1' }] },
      { ...desiredTags, team: 'platform' },
      ['tag team: want "platform"', 'tag rogue: not in spec'],
    ],
  ])('differences: %s', (_name, change, tags, expected) => {
    expect(differences({ ...address, ...change }, tags)).toEqual(expected);
  });
});
