// Wires EC2 SDK calls to the ExternalClient verbs for security group rules. Decisions live in
// convert.ts; observe, the sweep and describe are the common path's (client-base.ts).
import {
  AuthorizeSecurityGroupEgressCommand,
  AuthorizeSecurityGroupIngressCommand,
  DescribeSecurityGroupRulesCommand,
  ModifySecurityGroupRulesCommand,
  RevokeSecurityGroupEgressCommand,
  RevokeSecurityGroupIngressCommand,
  paginateDescribeSecurityGroupRules,
  type DescribeSecurityGroupRulesCommandOutput,
  type SecurityGroupRule,
} from '@aws-sdk/client-ec2';
import { ClassifiedError } from '#core/errors';
import type { ExternalObservation } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { desiredTags, mapToTags } from '../../tags';
import { Ec2KindClient, externalNameOf, type Ec2KindDescription } from '../client-base';
import { ec2Connector, present, requiredId, type Ec2Api } from '../ec2-api';
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

type P = SecurityGroupRuleParameters;
type A = SecurityGroupRuleObservation;
type RuleResource = ManagedResource<P, A>;

/** Rules are found by rule id whatever group holds them. */
const rules: Ec2KindDescription<P, A, SecurityGroupRule, DescribeSecurityGroupRulesCommandOutput> = {
  noun: 'security group rule',
  plural: 'security group rules',
  describe: (sdk, { ids, filters }) => sdk.send(new DescribeSecurityGroupRulesCommand({ SecurityGroupRuleIds: ids, Filters: filters })),
  resourcesIn: (answer) => answer.SecurityGroupRules,
  idOf: (rule) => rule.SecurityGroupRuleId,
  sweep: { filter: 'security-group-rule-id', paginate: paginateDescribeSecurityGroupRules },
  observation,
};

export const securityGroupRuleConnector = ec2Connector<P, A>((api) => new SecurityGroupRuleExternalClient(api));

export class SecurityGroupRuleExternalClient extends Ec2KindClient<P, A, SecurityGroupRule> {
  constructor(ec2: Ec2Api) {
    super(ec2, rules);
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
    return this.updateExisting(mr, async (ruleId, rule) => {
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
      return done;
    });
  }

  async delete(mr: RuleResource): Promise<string> {
    const ruleId = externalNameOf(mr);
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
function observation(mr: RuleResource, rule: SecurityGroupRule): ExternalObservation<P, A> {
  return present(mr, {
    tags: rule.Tags,
    differences: differences(mr.spec.forProvider, rule, desiredTags(securityGroupRuleApi, mr)),
    readiness: readinessOf(rule),
    atProvider: toAtProvider(rule),
    lateInitialized: lateInitialize(mr.spec.forProvider, rule),
  });
}
