// Table tests of the instance's pure conversions: atProvider, readiness, late initialization,
// connection details, the user data check, drift, and the steps of an instance type change.
import { describe, expect, it } from 'vitest';
import type { Instance } from '@aws-sdk/client-ec2';
import {
  RESIZE_TAG,
  connectionDetailsOf,
  differences,
  lateInitialize,
  readinessOf,
  resizeStep,
  toAtProvider,
  userDataDifference,
  type ResizeStep,
} from './convert';
import type { InstanceParameters } from './schema';

const spec: InstanceParameters = { region: 'us-east-1', imageId: 'ami-1', instanceType: 't3.micro', tags: { tier: 'web' } };
const instance: Instance = {
  InstanceId: 'i-1',
  State: { Name: 'running', Code: 16 },
  InstanceType: 't3.micro',
  ImageId: 'ami-1',
  VpcId: 'vpc-1',
  SubnetId: 'subnet-1',
  PrivateIpAddress: '10.0.1.5',
  PublicIpAddress: '54.1.2.3',
  PrivateDnsName: 'ip-10-0-1-5.ec2.internal',
  PublicDnsName: '',
  LaunchTime: new Date('2026-11-22T08:00:00Z'),
  Placement: { AvailabilityZone: 'us-east-1b', Tenancy: 'default' },
  SecurityGroups: [{ GroupId: 'sg-1' }],
  Monitoring: { State: 'disabled' },
  MetadataOptions: { HttpTokens: 'optional', HttpEndpoint: 'enabled', HttpPutResponseHopLimit: 1 },
  Tags: [{ Key: 'tier', Value: 'web' }],
};
const tags = { tier: 'web' };
const at = (state: string, change: Partial<Instance> = {}): Instance => ({ ...instance, State: { Name: state as never }, ...change });
const marked = (to: string) => ({ Tags: [...instance.Tags!, { Key: RESIZE_TAG, Value: to }] });
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('instance conversion', () => {
  it('maps DescribeInstances output to atProvider, leaving out empty DNS names', () => {
    expect(toAtProvider(instance)).toEqual({
      instanceId: 'i-1',
      state: 'running',
      instanceType: 't3.micro',
      imageId: 'ami-1',
      vpcId: 'vpc-1',
      subnetId: 'subnet-1',
      privateIpAddress: '10.0.1.5',
      publicIpAddress: '54.1.2.3',
      privateDnsName: 'ip-10-0-1-5.ec2.internal',
      publicDnsName: undefined,
      launchTime: '2026-11-22T08:00:00.000Z',
      availabilityZone: 'us-east-1b',
      tenancy: 'default',
    });
  });

  it.each<[string, Partial<Instance>, InstanceParameters, string, string | undefined]>([
    ['running', {}, spec, 'Available', undefined],
    ['pending', {}, spec, 'Creating', undefined],
    ['shutting-down', {}, spec, 'Deleting', undefined],
    ['stopped', {}, spec, 'Unavailable', 'instance is stopped; Chronoplane starts only an instance it stopped itself'],
    ['stopping', {}, spec, 'Unavailable', 'instance is stopping; Chronoplane starts only an instance it stopped itself'],
    [
      'stopping',
      marked('t3.small'),
      { ...spec, instanceType: 't3.small' },
      'Unavailable',
      'stopping to change instance type from t3.micro to t3.small',
    ],
    [
      'stopped',
      marked('t3.small'),
      { ...spec, instanceType: 't3.small' },
      'Unavailable',
      'stopped to change instance type from t3.micro to t3.small',
    ],
    ['stopped', marked('t3.micro'), spec, 'Unavailable', 'stopped to change instance type to t3.micro; starting it again'],
  ])('state %s (%o) means readiness %s', (state, change, s, readiness, readinessMessage) => {
    expect(readinessOf(s, at(state, change))).toEqual({ readiness, ...(readinessMessage ? { readinessMessage } : {}) });
  });

  it('late-initializes only the fields the spec left empty', () => {
    expect(lateInitialize(spec, instance)).toEqual({ availabilityZone: 'us-east-1b', privateIpAddress: '10.0.1.5', tenancy: 'default' });
    expect(lateInitialize({ ...spec, availabilityZone: 'us-east-1b', tenancy: 'default' }, instance)).toEqual({
      privateIpAddress: '10.0.1.5',
    });
    expect(
      lateInitialize({ ...spec, availabilityZone: 'us-east-1b', tenancy: 'default', privateIpAddress: '10.0.1.5' }, instance),
    ).toBeUndefined();
  });

  it('publishes only the non-empty ways to reach the instance', () => {
    expect(connectionDetailsOf(instance)).toEqual({
      instanceId: 'i-1',
      privateIp: '10.0.1.5',
      publicIp: '54.1.2.3',
      privateDnsName: 'ip-10-0-1-5.ec2.internal',
    });
  });

  describe('userDataDifference', () => {
    const ref = { name: 'web-user-data', key: 'user-data' };
    it('is silent without a userDataSecretRef, or when the digests agree', () => {
      expect(userDataDifference(undefined, 'default', 'x', b64('y'))).toBeUndefined();
      expect(userDataDifference(ref, 'default', '#!/bin/sh\necho hi\n', b64('#!/bin/sh\necho hi\n'))).toBeUndefined();
      expect(userDataDifference(ref, 'default', '', undefined)).toBeUndefined();
    });
    it('reports a change, or a missing Secret, without either value', () => {
      expect(userDataDifference(ref, 'default', 'new-secret-script', b64('old-secret-script'))).toBe(
        'userData changed (needs replacement)',
      );
      expect(userDataDifference(ref, 'team-a', undefined, b64('old-secret-script'))).toBe(
        'userData: Secret team-a/web-user-data has no key user-data, so it cannot be checked',
      );
    });
  });

  it.each<[string, Partial<InstanceParameters>, Partial<Instance>, string | undefined, string[]]>([
    ['in sync', {}, {}, undefined, []],
    ['unset fields are not compared', { tags: { tier: 'web' } }, { Monitoring: { State: 'enabled' }, SecurityGroups: [] }, undefined, []],
    ['instance type', { instanceType: 't3.small' }, {}, undefined, ['instanceType: want t3.small, have t3.micro (stop, change, start)']],
    ['an unfinished type change', {}, marked('t3.micro'), undefined, ['instanceType: the change to t3.micro is not finished']],
    [
      'security groups, in any order',
      { securityGroupIds: ['sg-2', 'sg-1'] },
      { SecurityGroups: [{ GroupId: 'sg-1' }, { GroupId: 'sg-2' }] },
      undefined,
      [],
    ],
    ['a security group too many', { securityGroupIds: ['sg-2'] }, {}, undefined, ['securityGroupIds: want [sg-2], have [sg-1]']],
    ['monitoring', { monitoring: true }, {}, undefined, ['monitoring: want true, have false']],
    ['monitoring being enabled', { monitoring: true }, { Monitoring: { State: 'pending' } }, undefined, []],
    [
      'metadata options',
      { metadataOptions: { httpTokens: 'required', httpPutResponseHopLimit: 1 } },
      {},
      undefined,
      ['metadataOptions.httpTokens: want required, have optional'],
    ],
    ['user data', {}, {}, 'userData changed (needs replacement)', ['userData changed (needs replacement)']],
    [
      'tags, the resize marker aside',
      {},
      { Tags: [{ Key: 'rogue', Value: '1' }, ...instance.Tags!] },
      undefined,
      ['tag rogue: not in spec'],
    ],
  ])('differences: %s', (_name, specChange, instanceChange, userData, expected) => {
    expect(differences({ ...spec, ...specChange }, { ...instance, ...instanceChange }, tags, userData)).toEqual(expected);
  });

  it.each<[string, string, Partial<Instance>, ResizeStep]>([
    ['same type, nothing to do', 't3.micro', {}, { step: 'none' }],
    ['running: stop first', 't3.small', {}, { step: 'stop', from: 't3.micro', to: 't3.small' }],
    ['stopping: wait', 't3.small', { State: { Name: 'stopping' }, ...marked('t3.small') }, { step: 'wait', state: 'stopping' }],
    [
      'stopped by us: modify and start',
      't3.small',
      { State: { Name: 'stopped' }, ...marked('t3.small') },
      { step: 'modify', from: 't3.micro', to: 't3.small', start: true },
    ],
    [
      'stopped by someone else: modify only',
      't3.small',
      { State: { Name: 'stopped' } },
      { step: 'modify', from: 't3.micro', to: 't3.small', start: false },
    ],
    ['modified, but not started yet', 't3.micro', { State: { Name: 'stopped' }, ...marked('t3.micro') }, { step: 'start' }],
    ['started, but still marked', 't3.micro', marked('t3.micro'), { step: 'untag' }],
    ['starting, still marked: wait', 't3.micro', { State: { Name: 'pending' }, ...marked('t3.micro') }, { step: 'wait', state: 'pending' }],
    ['pending: wait', 't3.small', { State: { Name: 'pending' } }, { step: 'wait', state: 'pending' }],
  ])('resizeStep: %s', (_name, instanceType, change, expected) => {
    expect(resizeStep({ ...spec, instanceType }, { ...instance, ...change })).toEqual(expected);
  });
});
