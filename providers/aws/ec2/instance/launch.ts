// What RunInstances is asked for one Instance object: the request built from forProvider, and
// the idempotency token that makes EC2 answer a retried launch with the first one's instance.
// Pure, so the mapping is unit tested; the user data arrives here already read from its Secret.
import { createHash } from 'node:crypto';
import type { RunInstancesCommandInput, VolumeType, _InstanceType } from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { instanceApi, type InstanceObservation, type InstanceParameters } from './schema';

type InstanceResource = ManagedResource<InstanceParameters, InstanceObservation>;

export function runInstancesInput(mr: InstanceResource, userData: string | undefined): RunInstancesCommandInput {
  const p = mr.spec.forProvider;
  return {
    ImageId: p.imageId,
    InstanceType: p.instanceType as _InstanceType,
    MinCount: 1,
    MaxCount: 1,
    ClientToken: clientToken(mr),
    SubnetId: p.subnetId,
    SecurityGroupIds: p.securityGroupIds,
    KeyName: p.keyName,
    UserData: userData === undefined ? undefined : Buffer.from(userData, 'utf8').toString('base64'),
    IamInstanceProfile: p.iamInstanceProfile && { Arn: p.iamInstanceProfile.arn, Name: p.iamInstanceProfile.name },
    PrivateIpAddress: p.privateIpAddress,
    EbsOptimized: p.ebsOptimized,
    Monitoring: p.monitoring === undefined ? undefined : { Enabled: p.monitoring },
    MetadataOptions: p.metadataOptions && {
      HttpTokens: p.metadataOptions.httpTokens,
      HttpEndpoint: p.metadataOptions.httpEndpoint,
      HttpPutResponseHopLimit: p.metadataOptions.httpPutResponseHopLimit,
    },
    BlockDeviceMappings: p.blockDeviceMappings?.map((m) => ({
      DeviceName: m.deviceName,
      NoDevice: m.noDevice,
      VirtualName: m.virtualName,
      Ebs: m.ebs && {
        DeleteOnTermination: m.ebs.deleteOnTermination,
        Encrypted: m.ebs.encrypted,
        Iops: m.ebs.iops,
        KmsKeyId: m.ebs.kmsKeyId,
        SnapshotId: m.ebs.snapshotId,
        Throughput: m.ebs.throughput,
        VolumeSize: m.ebs.volumeSize,
        VolumeType: m.ebs.volumeType as VolumeType | undefined,
      },
    })),
    Placement: p.availabilityZone || p.tenancy ? { AvailabilityZone: p.availabilityZone, Tenancy: p.tenancy } : undefined,
    TagSpecifications: [{ ResourceType: 'instance', Tags: mapToTags(desiredTags(instanceApi, mr)) }],
  };
}

/**
 * RunInstances' idempotency token: the same for every attempt of one create, so EC2 answers a
 * retry with the instance the first attempt launched. A terminated instance keeps its token
 * for good (IdempotentInstanceTerminated), so the recorded instance a recreate replaces is part
 * of it. A SHA-256 in hex is exactly EC2's 64-character limit.
 */
export function clientToken(mr: InstanceResource): string {
  const replaces = mr.metadata.annotations?.[EXTERNAL_NAME] ?? '';
  return createHash('sha256').update(`${mr.metadata.uid}/${replaces}`).digest('hex');
}
