// Wires EC2 SDK calls to the ExternalClient verbs for security group rules. Decisions live in convert.ts.
import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  DescribeSecurityGroupRulesCommand,
  ModifySecurityGroupRulesCommand,
  RevokeSecurityGroupEgressCommand,
  RevokeSecurityGroupIngressCommand,
  paginateDescribeSecurityGroupRules,
  type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { EXTERNAL_NAME } from '../../../../apis/annotations';
import { ClassifiedError } from '../../../../runtime/errors';
import type { ExternalClient, ExternalObservation, SweptObservation } from '../../../../runtime/external-client';
import type { ManagedResource } from '../../../../runtime/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { ABSENT, ec2Connector, present, requiredId, sweptByUid, withExternalNames, type Ec2Api } from '../ec2-api';
import {
  differences,
  earlierRule,
  hasPeer,
  ipPermissionFor,
  lateInitialize,
  ownerOf,
  readinessOf,
  ruleRequestFor,
  toAtProvider,
} from './convert';
import { securityGroupRuleApi, type SecurityGroupRuleObservation, type SecurityGroupRuleParameters } from './schema';

type RuleResource = ManagedResource<SecurityGroupRuleParameters, SecurityGroupRuleObservation>;

export const securityGroupRuleConnector = ec2Connector<SecurityGroupRuleParameters, SecurityGroupRuleObservation>(
  (api) => new SecurityGroupRuleExternalClient(api),
);

export class SecurityGroupRuleExternalClient implements ExternalClient<SecurityGroupRuleParameters, SecurityGroupRuleObservation> {
  constructor(private readonly ec2: Ec2Api) {}

  async observe(mr: RuleResource): Promise<ExternalObservation<SecurityGroupRuleParameters, SecurityGroupRuleObservation>> {
    const ruleId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!ruleId) return ABSENT;
    const rule = await this.describe(ruleId);
    return rule ? observation(mr, rule) : ABSENT;
  }

  /** One DescribeSecurityGroupRules per 200 rules, found by rule id whatever group holds them. */
  async observeMany(mrs: readonly RuleResource[]): Promise<Map<string, SweptObservation<SecurityGroupRuleObservation>>> {
    const named = withExternalNames(mrs);
    const ids = named.map((n) => n.id);
    const rules = await this.ec2.describeMatching(
      'cannot describe security group rules',
      'security-group-rule-id',
      ids,
      paginateDescribeSecurityGroupRules,
      (p) => p.SecurityGroupRules,
    );
    return sweptByUid(named, new Map(rules.map((rule) => [rule.SecurityGroupRuleId!, rule])), observation);
  }

  async create(mr: RuleResource) {
    const p = mr.spec.forProvider;
    const groupId = requiredId(p.securityGroupId, 'securityGroupId');
    if (!hasPeer(p)) {
      throw new ClassifiedError(
        'InvalidInput',
        'one of cidrIpv4, cidrIpv6, prefixListId or referencedGroupId is required: set it, or referencedGroupIdRef or referencedGroupIdSelector',
      );
    }
    // EC2 identifies a rule by its content and has no client token, so an earlier attempt's
    // rule (or an identical untagged one) is found by content before authorizing a new one.
    const earlier = await this.adoptable(mr, groupId);
    if (earlier) return { externalName: earlier, summary: `adopted the identical ${p.type} rule ${earlier} already in ${groupId}` };

    const request = {
      GroupId: groupId,
      IpPermissions: [ipPermissionFor(p)],
      TagSpecifications: [{ ResourceType: 'security-group-rule' as const, Tags: mapToTags(desiredTags(securityGroupRuleApi, mr)) }],
    };
    // InvalidPermission.Duplicate: a twin appeared since we looked (a concurrent attempt); adopt it below if it is ours.
    const authorized = await this.ec2.callUnless(
      `cannot authorize ${p.type} rule in security group ${groupId}`,
      'InvalidPermission.Duplicate',
      (sdk) =>
        p.type === 'egress'
          ? sdk.send(new AuthorizeSecurityGroupEgressCommand(request))
          : sdk.send(new AuthorizeSecurityGroupIngressCommand(request)),
    );
    const ruleId = authorized?.SecurityGroupRules?.[0]?.SecurityGroupRuleId ?? (await this.adoptable(mr, groupId));
    if (!ruleId)
      throw new ClassifiedError('Transient', `cannot find the id of the ${p.type} rule just authorized in ${groupId}; will look again`);
    return { externalName: ruleId, summary: `${authorized ? 'authorized' : 'found'} ${p.type} rule ${ruleId} in ${groupId}` };
  }

  async update(mr: RuleResource): Promise<string> {
    const ruleId = mr.metadata.annotations![EXTERNAL_NAME]!;
    const rule = await this.describe(ruleId);
    if (!rule) return `security group rule ${ruleId} is gone; nothing to update`;
    const done: string[] = [];
    const description = mr.spec.forProvider.description;
    if ((description ?? '') !== (rule.Description ?? '')) {
      await this.ec2.call(`cannot change the description of security group rule ${ruleId}`, (sdk) =>
        sdk.send(
          new ModifySecurityGroupRulesCommand({
            GroupId: rule.GroupId,
            SecurityGroupRules: [{ SecurityGroupRuleId: ruleId, SecurityGroupRule: ruleRequestFor(rule, description) }],
          }),
        ),
      );
      done.push(description ? `set description ${JSON.stringify(description)}` : 'cleared description');
    }
    done.push(...(await this.ec2.syncTags(ruleId, desiredTags(securityGroupRuleApi, mr), rule.Tags)));
    return `updated security group rule ${ruleId}: ${done.join('; ') || 'already up to date'}`;
  }

  async delete(mr: RuleResource): Promise<string> {
    const ruleId = mr.metadata.annotations?.[EXTERNAL_NAME];
    if (!ruleId) return 'no security group rule was recorded; nothing to delete';
    const groupId = mr.spec.forProvider.securityGroupId ?? (await this.describe(ruleId))?.GroupId;
    if (!groupId) return `security group rule ${ruleId} was already gone`;
    const ids = { GroupId: groupId, SecurityGroupRuleIds: [ruleId] };
    // A gone rule (…RuleId.NotFound, InvalidPermission.NotFound) or gone group (InvalidGroup.NotFound) is success.
    const revoked = await this.ec2.remove(`cannot revoke security group rule ${ruleId} of ${groupId}`, (sdk) =>
      mr.spec.forProvider.type === 'egress'
        ? sdk.send(new RevokeSecurityGroupEgressCommand(ids))
        : sdk.send(new RevokeSecurityGroupIngressCommand(ids)),
    );
    return revoked ? `revoked security group rule ${ruleId} of ${groupId}` : `security group rule ${ruleId} was already gone`;
  }

  private describe(ruleId: string): Promise<SecurityGroupRule | undefined> {
    return this.ec2.find(
      `cannot describe security group rule ${ruleId}`,
      async (sdk) => (await sdk.send(new DescribeSecurityGroupRulesCommand({ SecurityGroupRuleIds: [ruleId] }))).SecurityGroupRules?.[0],
    );
  }

  /** The id of a rule create may adopt, if any; a twin that belongs to someone else is invalid input. */
  private async adoptable(mr: RuleResource, groupId: string): Promise<string | undefined> {
    const found = earlierRule(mr.spec.forProvider, mr.metadata.uid, await this.rulesOf(groupId));
    if (!found) return undefined;
    if ('adopt' in found) return found.adopt.SecurityGroupRuleId;
    throw new ClassifiedError(
      'InvalidInput',
      `cannot create the rule: security group ${groupId} already has an identical ${mr.spec.forProvider.type} rule ${found.conflict.SecurityGroupRuleId}, and ${ownerOf(found.conflict)}`,
    );
  }

  private async rulesOf(groupId: string): Promise<SecurityGroupRule[]> {
    const rules: SecurityGroupRule[] = [];
    let NextToken: string | undefined;
    do {
      const page = await this.ec2.call(`cannot list the rules of security group ${groupId}`, (sdk) =>
        sdk.send(new DescribeSecurityGroupRulesCommand({ Filters: [{ Name: 'group-id', Values: [groupId] }], NextToken })),
      );
      rules.push(...(page.SecurityGroupRules ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
    return rules;
  }
}

/** What observe and observeMany make of what EC2 reported: one comparison, in convert.ts. */
function observation(
  mr: RuleResource,
  rule: SecurityGroupRule,
): ExternalObservation<SecurityGroupRuleParameters, SecurityGroupRuleObservation> {
  return present(mr, {
    tags: rule.Tags,
    differences: differences(mr.spec.forProvider, rule, desiredTags(securityGroupRuleApi, mr)),
    readiness: readinessOf(rule),
    atProvider: toAtProvider(rule),
    lateInitialized: lateInitialize(mr.spec.forProvider, rule),
  });
}
