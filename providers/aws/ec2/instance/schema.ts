// The Instance API: forProvider mirrors EC2's RunInstances input (one instance per object),
// atProvider mirrors DescribeInstances output, with EC2's field names in camelCase (seed 001).
// User data is a sensitive input, so the spec names a Secret key instead of holding it.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { ec2KindApi, ImmutableId, Region, Tags } from '../fields';
import { AVAILABILITY_ZONE_IN_REGION } from '../subnet/schema';

export const instanceApi = ec2KindApi({
  kind: 'Instance',
  plural: 'instances',
  singular: 'instance',
  shortNames: ['ec2instance'],
  description: 'An AWS EC2 instance, launched and kept in sync by Chronoplane.',
});

const Immutable = <T extends Parameters<typeof immutable>[0]>(schema: T, field: string) => Type.Optional(immutable(schema, field));

const SecretKeySelector = Doc('A key of a Secret in this resource\u2019s namespace.', {
  name: DocString('Name of the Secret.', { minLength: 1, maxLength: 253 }),
  key: DocString('Key within the Secret.', { minLength: 1, maxLength: 253 }),
});

const IamInstanceProfile = withRules(
  Doc('The IAM instance profile to attach, by ARN or by name.', {
    arn: Type.Optional(DocString('The ARN of the instance profile.')),
    name: Type.Optional(DocString('The name of the instance profile.')),
  }),
  { rule: 'has(self.arn) != has(self.name)', message: 'iamInstanceProfile takes exactly one of arn and name' },
);

const MetadataOptions = Doc('How the instance metadata service (IMDS) answers on the instance.', {
  httpTokens: Type.Optional(
    Type.Union([Type.Literal('optional'), Type.Literal('required')], {
      description: 'required makes IMDSv2 session tokens mandatory; optional also allows IMDSv1.',
    }),
  ),
  httpEndpoint: Type.Optional(
    Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], { description: 'Whether the metadata service answers at all.' }),
  ),
  httpPutResponseHopLimit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 64, description: 'How many network hops the PUT response for a session token may travel.' }),
  ),
});

const EbsBlockDevice = Doc('The EBS volume of a block device mapping.', {
  deleteOnTermination: Type.Optional(Type.Boolean({ description: 'Whether the volume is deleted when the instance terminates.' })),
  encrypted: Type.Optional(Type.Boolean({ description: 'Whether the volume is encrypted.' })),
  iops: Type.Optional(Type.Integer({ minimum: 100, description: 'Provisioned IOPS, for io1, io2 and gp3 volumes.' })),
  kmsKeyId: Type.Optional(DocString('The KMS key that encrypts the volume.')),
  snapshotId: Type.Optional(DocString('The snapshot to create the volume from.')),
  throughput: Type.Optional(Type.Integer({ minimum: 125, description: 'Throughput in MiB/s, for gp3 volumes.' })),
  volumeSize: Type.Optional(Type.Integer({ minimum: 1, description: 'The size of the volume in GiB.' })),
  volumeType: Type.Optional(DocString('standard, io1, io2, gp2, gp3, sc1 or st1.', { maxLength: 16 })),
});

const BlockDeviceMapping = Doc('A block device mapping, as RunInstances takes it.', {
  deviceName: DocString('The device name, such as /dev/sdh or xvdh.', { minLength: 1, maxLength: 64 }),
  ebs: Type.Optional(EbsBlockDevice),
  noDevice: Type.Optional(DocString('Set to an empty string to suppress the AMI\u2019s mapping of this device.', { maxLength: 0 })),
  virtualName: Type.Optional(DocString('An instance store volume, such as ephemeral0.', { maxLength: 32 })),
});

export const InstanceParameters = withRules(
  Doc('The desired state of the instance, in EC2\u2019s terms.', {
    region: Region('instance'),
    imageId: immutable(
      DocString('The ID of the AMI to launch, such as ami-0abcdef1234567890.', { minLength: 1, maxLength: 64 }),
      'imageId',
    ),
    instanceType: DocString(
      'The instance type, such as t3.micro. A change stops the instance, changes its type and starts it again, as EC2 requires.',
      { minLength: 1, maxLength: 64 },
    ),
    subnetId: ImmutableId(
      'subnetId',
      'The ID of the subnet to launch into. Set it, or let subnetIdRef or subnetIdSelector fill it in; when all are empty EC2 picks a subnet of the default VPC.',
    ),
    securityGroupIds: Type.Optional(
      Type.Array(DocString('The ID of a security group.', { maxLength: 64 }), {
        maxItems: 16,
        description:
          'The IDs of the security groups of the instance\u2019s network interface. Set them, or let securityGroupIdRefs or securityGroupIdSelector fill them in; when empty EC2 uses the VPC\u2019s default group. A change applies in place.',
      }),
    ),
    keyName: ImmutableId(
      'keyName',
      'The name of the key pair whose public key is installed for SSH. Set it, or let keyNameRef or keyNameSelector fill it in from a KeyPair.',
    ),
    userDataSecretRef: Type.Optional(
      Doc(
        'Where the user data is (such as a cloud-init script), as plain text: the value never appears in the spec, status, events or logs. EC2 runs it at first boot only, so a changed value is reported as drift that needs a new instance (delete and recreate this object), not applied.',
        SecretKeySelector.properties,
      ),
    ),
    iamInstanceProfile: Type.Optional(immutable(IamInstanceProfile, 'iamInstanceProfile')),
    privateIpAddress: Immutable(
      withRules(
        DocString(
          'The primary private IPv4 address, from the subnet\u2019s range. Set at creation; EC2 picks one when omitted, and the spec adopts it.',
          {
            maxLength: 15,
          },
        ),
        { rule: 'isIP(self) && ip(self).family() == 4', message: 'privateIpAddress must be an IPv4 address, such as 10.0.1.10' },
      ),
      'privateIpAddress',
    ),
    ebsOptimized: Immutable(
      Type.Boolean({ description: 'Whether the instance is optimized for EBS I/O. Set at creation.' }),
      'ebsOptimized',
    ),
    monitoring: Type.Optional(
      Type.Boolean({ description: 'Whether detailed (one-minute) CloudWatch monitoring is enabled. EC2 defaults to false.' }),
    ),
    metadataOptions: Type.Optional(MetadataOptions),
    blockDeviceMappings: Immutable(
      Type.Array(BlockDeviceMapping, { maxItems: 16, description: 'The block device mappings of the instance. Set at creation.' }),
      'blockDeviceMappings',
    ),
    availabilityZone: Immutable(
      DocString(
        'The Availability Zone to launch in, such as us-east-1a; it must be the subnet\u2019s. Set at creation; EC2 picks one when omitted, and the spec adopts it.',
        { maxLength: 64 },
      ),
      'availabilityZone',
    ),
    tenancy: Immutable(
      Type.Union([Type.Literal('default'), Type.Literal('dedicated'), Type.Literal('host')], {
        description:
          'Whether the instance runs on shared (default) or single-tenant hardware. Set at creation; filled in from EC2 when omitted.',
      }),
      'tenancy',
    ),
    tags: Tags('instance'),
  }),
  AVAILABILITY_ZONE_IN_REGION,
);
export type InstanceParameters = Static<typeof InstanceParameters>;

export const InstanceObservation = Doc('The instance as EC2 last reported it.', {
  instanceId: Type.Optional(DocString('The ID of the instance.')),
  state: Type.Optional(DocString('pending, running, stopping, stopped, shutting-down or terminated.')),
  instanceType: Type.Optional(DocString('The instance type it runs as now.')),
  imageId: Type.Optional(DocString('The ID of the AMI it was launched from.')),
  vpcId: Type.Optional(DocString('The ID of the VPC it runs in.')),
  subnetId: Type.Optional(DocString('The ID of the subnet it runs in.')),
  privateIpAddress: Type.Optional(DocString('The primary private IPv4 address.')),
  publicIpAddress: Type.Optional(DocString('The public IPv4 address, if it has one.')),
  privateDnsName: Type.Optional(DocString('The private DNS name.')),
  publicDnsName: Type.Optional(DocString('The public DNS name, if it has one.')),
  launchTime: Type.Optional(DocString('When the instance was last started, in RFC 3339 form.')),
  availabilityZone: Type.Optional(DocString('The Availability Zone it runs in.')),
  tenancy: Type.Optional(DocString('default, dedicated or host.')),
});
export type InstanceObservation = Static<typeof InstanceObservation>;
