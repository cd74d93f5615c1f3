// Wires EC2 SDK calls to the ExternalClient verbs for security groups. Decisions live in
// convert.ts; observe, the sweep, describe and the uid lookup are the common path's (client-base.ts).
import {
  CreateSecurityGroupCommand,
  DeleteSecurityGroupCommand,
  DescribeSecurityGroupRulesCommand,
  DescribeSecurityGroupsCommand,
  RevokeSecurityGroupEgressCommand,
  paginateDescribeSecurityGroups,
  type DescribeSecurityGroupsCommandOutput,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { CreateAttempt, ExternalDeletion, ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { carriesUid, desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, type Ec2KindDescription } from '../client-base';
import { ec2Connector, present, type Ec2Api } from '../ec2-api';
import { defaultEgressRuleIds, differences, groupNameFor, lateInitialize, readinessOf, toAtProvider } from './convert';
import { securityGroupApi, type SecurityGroupObservation, type SecurityGroupParameters } from './schema';

type P = SecurityGroupParameters;
type A = SecurityGroupObservation;
type SecurityGroupResource = ManagedResource<P, A>;

const securityGroups: Ec2KindDescription<P, A, SecurityGroup, DescribeSecurityGroupsCommandOutput> = {
  noun: 'security group',
  plural: 'security groups',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeSecurityGroupsCommand({ GroupIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.SecurityGroups,
  idOf: (group) => group.GroupId,
  sweep: { filter: 'group-id', paginate: paginateDescribeSecurityGroups },
  observation,
};

export const securityGroupConnector = ec2Connector<P, A>((api) => new SecurityGroupExternalClient(api));

export class SecurityGroupExternalClient extends Ec2KindClient<P, A, SecurityGroup> {
  constructor(ec2: Ec2Api) {
    super(ec2, securityGroups);
  }

  async create(mr: SecurityGroupResource, attempt?: CreateAttempt) {
    const p = mr.spec.forProvider;
    // No client token either: an interrupted earlier attempt is found by the uid tag that
    // CreateSecurityGroup applies atomically. Its default egress may still need revoking.
    const earlier = attempt?.mayExist !== false ? await this.findByUid(mr.metadata.uid) : undefined;
    if (earlier?.GroupId) {
      const revoked = p.revokeDefaultEgress ? await this.revokeDefaultEgressOrUndo(earlier.GroupId) : '';
      return { externalName: earlier.GroupId, summary: `found security group ${earlier.GroupId} made by an earlier attempt${revoked}` };
    }
    const groupName = groupNameFor(p, mr.metadata.name);
    const where = p.vpcId ? `VPC ${p.vpcId}` : 'the default VPC';
    // InvalidGroup.Duplicate: the name is taken in the VPC; adoptNamesake decides whether by us.
    const created = await this.ec2.callUnless(`cannot create security group ${groupName} in ${where}`, 'InvalidGroup.Duplicate', (sdk) =>
      sdk.send(
        new CreateSecurityGroupCommand({
          GroupName: groupName,
          Description: p.description,
          VpcId: p.vpcId,
          TagSpecifications: [{ ResourceType: 'security-group', Tags: mapToTags(desiredTags(securityGroupApi, mr)) }],
        }),
      ),
    );
    const groupId = created?.GroupId ?? (await this.adoptNamesake(mr, groupName, where));
    const revoked = p.revokeDefaultEgress ? await this.revokeDefaultEgressOrUndo(groupId) : '';
    const verb = created ? 'created' : 'found';
    return { externalName: groupId, summary: `${verb} security group ${groupId} (${groupName}) in ${where}${revoked}` };
  }

  async update(mr: SecurityGroupResource): Promise<string> {
    return this.updateExisting(mr, (groupId, group) => this.ec2.syncTags(groupId, desiredTags(securityGroupApi, mr), group.Tags));
  }

  /** DeleteSecurityGroup answers once the group is gone. */
  delete(mr: SecurityGroupResource): Promise<ExternalDeletion> {
    return this.deleteAtOnce(mr, (sdk, groupId) => sdk.send(new DeleteSecurityGroupCommand({ GroupId: groupId })));
  }

  /**
   * The name is taken in the VPC. It is ours only if it carries our uid tag (a concurrent
   * attempt won the race); anyone else's group must not be adopted.
   */
  private async adoptNamesake(mr: SecurityGroupResource, groupName: string, where: string): Promise<string> {
    const vpcId = mr.spec.forProvider.vpcId;
    const namesakes = await this.describeWhere(`cannot look for security group ${groupName} in ${where}`, [
      { Name: 'group-name', Values: [groupName] },
      ...(vpcId ? [{ Name: 'vpc-id', Values: [vpcId] }] : []),
    ]);
    const ours = namesakes.find((g) => carriesUid(g.Tags, mr.metadata.uid));
    if (ours?.GroupId) return ours.GroupId;
    const theirs = namesakes[0]?.GroupId ? ` (${namesakes[0].GroupId})` : '';
    throw new ClassifiedError(
      'InvalidInput',
      `cannot create security group ${groupName}: a security group of that name already exists in ${where}${theirs}; choose another groupName`,
    );
  }

  /**
   * Revokes the default egress of a group this object made (it carries the uid tag) and has not
   * recorded yet. The update never revokes (an allow-all egress rule added later is the user's),
   * so the create cannot leave this step to it; and a group the create does not return is
   * recorded nowhere, so nobody would ever delete it. On failure the group is deleted again, and
   * the error stands; should that delete fail too, the retried create finds the group by its tag.
   */
  private async revokeDefaultEgressOrUndo(groupId: string): Promise<string> {
    try {
      return await this.revokeDefaultEgress(groupId);
    } catch (error) {
      const undone = await this.ec2
        .remove(`cannot delete security group ${groupId} again`, (sdk) => sdk.send(new DeleteSecurityGroupCommand({ GroupId: groupId })))
        .then(
          () => `security group ${groupId} was deleted again`,
          (undoError: unknown) => `${(undoError as Error).message}; a retried create finds it by its uid tag`,
        );
      if (error instanceof ClassifiedError) throw new ClassifiedError(error.failureClass, `${error.message}; ${undone}`);
      throw error;
    }
  }

  /** Revokes EC2's allow-all egress rules by id; a retry finds none left, so this is idempotent. */
  private async revokeDefaultEgress(groupId: string): Promise<string> {
    const rules = await this.ec2.call(`cannot list the rules of security group ${groupId}`, (sdk) =>
      sdk.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }] })),
    );
    const ruleIds = defaultEgressRuleIds(rules.SecurityGroupRules ?? []);
    if (ruleIds.length === 0) return '';
    await this.ec2.call(`cannot revoke the default egress of security group ${groupId}`, (sdk) =>
      sdk.send(new RevokeSecurityGroupEgressCommand({ GroupId: groupId, SecurityGroupRuleIds: ruleIds })),
    );
    return `; revoked default egress ${ruleIds.join(', ')}`;
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(mr: SecurityGroupResource, group: SecurityGroup): ExternalObservation<P, A> {
  return present(mr, {
    tags: group.Tags,
    differences: differences(group, desiredTags(securityGroupApi, mr)),
    readiness: readinessOf(group),
    atProvider: toAtProvider(group),
    lateInitialized: lateInitialize(mr.spec.forProvider, group),
  });
}
