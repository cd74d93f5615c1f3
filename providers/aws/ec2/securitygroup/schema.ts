// The SecurityGroup API: forProvider mirrors EC2's CreateSecurityGroup input, atProvider mirrors
// DescribeSecurityGroups output, with EC2's field names in camelCase (seed 001). Rules are not
// here: each rule is a SecurityGroupRule object (seed 001: a sub-resource with a kind of its
// own is not managed inline, nor shown in status).
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, immutable, withRules } from '#core/schema';
import { ec2KindApi, ImmutableId, Region, Tags } from '../fields';

export const securityGroupApi = ec2KindApi({
  kind: 'SecurityGroup',
  plural: 'securitygroups',
  singular: 'securitygroup',
  shortNames: ['ec2sg'],
  description: 'An AWS EC2 security group of a VPC, provisioned and kept in sync by Chronoplane. Its rules are SecurityGroupRule objects.',
});

/**
 * What EC2 takes in a VPC security group's name and description (CEL, as a raw string). Anything
 * else (a non-ASCII letter, a newline, a NUL) EC2 refuses at create, and moto takes and then
 * cannot list; refused here, the mistake shows at once and names the field.
 */
const VPC_GROUP_CHARACTERS = "r'^[a-zA-Z0-9 ._:/()#,@\\[\\]+=&;{}!$*-]*$'";
const VPC_GROUP_CHARACTERS_IN_WORDS = 'letters a-z and A-Z, digits, spaces and ._-:/()#,@[]+=&;{}!$*';

export const SecurityGroupParameters = Doc('The desired state of the security group, in EC2\u2019s terms.', {
  region: Region('security group'),
  groupName: Type.Optional(
    withRules(
      immutable(
        DocString(
          'The name of the security group, unique within its VPC: up to 255 characters, not starting with sg-. Set at creation; defaults to this object\u2019s name, and the spec adopts it.',
          { minLength: 1, maxLength: 255 },
        ),
        'groupName',
      ),
      { rule: "!self.startsWith('sg-')", message: 'groupName cannot start with sg-' },
      { rule: `self.matches(${VPC_GROUP_CHARACTERS})`, message: `groupName may contain only ${VPC_GROUP_CHARACTERS_IN_WORDS}` },
    ),
  ),
  description: immutable(
    withRules(
      DocString('A description of the security group, up to 255 characters. EC2 requires it and cannot change it after creation.', {
        minLength: 1,
        maxLength: 255,
      }),
      { rule: `self.matches(${VPC_GROUP_CHARACTERS})`, message: `description may contain only ${VPC_GROUP_CHARACTERS_IN_WORDS}` },
    ),
    'description',
  ),
  vpcId: ImmutableId(
    'vpcId',
    'The ID of the VPC of the security group. Set it, or let vpcIdRef or vpcIdSelector fill it in; when all are empty EC2 uses the region\u2019s default VPC, and the spec adopts its ID.',
  ),
  revokeDefaultEgress: Type.Optional(
    immutable(
      Type.Boolean({
        default: false,
        description:
          'EC2 gives every new security group a rule that allows all outbound traffic. Only when true is that default egress rule revoked, right after creation, so that only SecurityGroupRule objects allow outbound traffic. Acts at creation only.',
      }),
      'revokeDefaultEgress',
    ),
  ),
  tags: Tags('security group'),
});
export type SecurityGroupParameters = Static<typeof SecurityGroupParameters>;

export const SecurityGroupObservation = Doc('The security group as EC2 last reported it.', {
  groupId: Type.Optional(DocString('The ID of the security group.')),
  groupName: Type.Optional(DocString('The name of the security group.')),
  ownerId: Type.Optional(DocString('The AWS account that owns the security group.')),
  vpcId: Type.Optional(DocString('The ID of the VPC of the security group.')),
  securityGroupArn: Type.Optional(DocString('The Amazon Resource Name (ARN) of the security group.')),
});
export type SecurityGroupObservation = Static<typeof SecurityGroupObservation>;
