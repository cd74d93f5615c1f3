// The RunInstances request built from a spec, and the idempotency token's rules.
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { clientToken, runInstancesInput } from './launch';
import type { InstanceObservation, InstanceParameters } from './schema';

const resource = (forProvider: Partial<InstanceParameters> = {}, annotations: Record<string, string> = {}) =>
  ({
    apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
    kind: 'Instance',
    metadata: { name: 'web', namespace: 'team-a', uid: 'uid-1', generation: 1, resourceVersion: '1', annotations },
    spec: { forProvider: { region: 'us-east-1', imageId: 'ami-1', instanceType: 't3.micro', ...forProvider } },
  }) as ManagedResource<InstanceParameters, InstanceObservation>;

describe('runInstancesInput', () => {
  it('asks for one instance, user data base64-encoded, and tags it at launch', () => {
    const input = runInstancesInput(
      resource({ subnetId: 'subnet-1', securityGroupIds: ['sg-1'], keyName: 'admin', monitoring: true, tags: { tier: 'web' } }),
      '#!/bin/sh\necho hi\n',
    );
    expect(input).toMatchObject({
      ImageId: 'ami-1',
      InstanceType: 't3.micro',
      MinCount: 1,
      MaxCount: 1,
      SubnetId: 'subnet-1',
      SecurityGroupIds: ['sg-1'],
      KeyName: 'admin',
      Monitoring: { Enabled: true },
      UserData: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'),
      ClientToken: clientToken(resource()),
    });
    expect(Object.fromEntries(input.TagSpecifications![0]!.Tags!.map((t) => [t.Key, t.Value]))).toMatchObject({
      tier: 'web',
      'crossplane-name': 'web',
      'chronoplane.io/uid': 'uid-1',
    });
    expect(input.TagSpecifications![0]!.ResourceType).toBe('instance');
  });

  it('maps the nested shapes to EC2\u2019s, and leaves out what the spec leaves out', () => {
    const input = runInstancesInput(
      resource({
        iamInstanceProfile: { name: 'web' },
        metadataOptions: { httpTokens: 'required', httpPutResponseHopLimit: 2 },
        blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: 20, volumeType: 'gp3', deleteOnTermination: true } }],
        availabilityZone: 'us-east-1b',
      }),
      undefined,
    );
    expect(input).toMatchObject({
      IamInstanceProfile: { Name: 'web' },
      MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 2 },
      BlockDeviceMappings: [{ DeviceName: '/dev/xvda', Ebs: { VolumeSize: 20, VolumeType: 'gp3', DeleteOnTermination: true } }],
      Placement: { AvailabilityZone: 'us-east-1b' },
    });
    expect(input.UserData).toBeUndefined();
    expect(runInstancesInput(resource(), undefined).Placement).toBeUndefined();
  });
});

describe('clientToken', () => {
  it('is the same for every attempt of one create, and fits EC2\u2019s 64 characters', () => {
    expect(clientToken(resource())).toBe(clientToken(resource({ instanceType: 't3.small' })));
    expect(clientToken(resource())).toMatch(/^[0-9a-f]{64}$/);
  });
  it('differs once an instance was recorded, whose token EC2 keeps after termination', () => {
    expect(clientToken(resource({}, { [EXTERNAL_NAME]: 'i-1' }))).not.toBe(clientToken(resource()));
  });
});
