// What every EC2 kind's API shares (its group and version, and schema fields), so that their
// rules and descriptions are written once.
import { Type } from '@sinclair/typebox';
import { Doc, DocString, StringMap, immutable, withRules, type CelRule } from '#core/schema';
import type { KindApi } from '#core/managed-kind';
import { AWS_TAG_LIMITS, SYSTEM_TAG_KEYS, USER_TAG_LIMIT } from '../tags';

/** The API group of every EC2 kind. */
export const EC2_GROUP = 'ec2.aws.chronoplane.io';

/** An EC2 kind's API identity: one group and version for all, and `kubectl get managed` lists them. */
export function ec2KindApi(names: Omit<KindApi, 'group' | 'version' | 'categories'>): KindApi {
  return { group: EC2_GROUP, version: 'v1alpha1', categories: ['managed', 'aws'], ...names };
}

/**
 * A region's shape: us-east-1, eu-central-2, us-gov-west-1, cn-north-1. Checked at admission
 * so a typo fails at once; a well-formed region EC2 does not know fails at the endpoint with
 * a message that names the region and the endpoint (see Ec2Api).
 */
const REGION_PATTERN = '^[a-z]{2}(-[a-z]+)+-[0-9]+$';

export const Region = (what: string) =>
  immutable(DocString(`The AWS region of the ${what}, such as us-east-1.`, { pattern: REGION_PATTERN, maxLength: 32 }), 'region');

/** RE2 (the regex dialect of CEL's matches), escaped for a CEL string: any C0 or C1 control character, or DEL. */
const CONTROL_CHARACTER = '[\\\\x00-\\\\x1f\\\\x7f-\\\\x9f]';

/** Tags as a map, as seed 001 asks; the system tags Chronoplane adds are reserved. */
export const Tags = (what: string) =>
  Type.Optional(
    withRules(
      StringMap(`Tags to set on the ${what}, at most ${USER_TAG_LIMIT}. Chronoplane adds ${SYSTEM_TAG_KEYS.join(', ')}.`, AWS_TAG_LIMITS),
      {
        rule: `size(self) <= ${USER_TAG_LIMIT}`,
        message: `at most ${USER_TAG_LIMIT} tags: EC2 allows ${AWS_TAG_LIMITS.maxEntries} a resource, and Chronoplane sets ${SYSTEM_TAG_KEYS.length} of its own (${SYSTEM_TAG_KEYS.join(', ')})`,
      },
      {
        rule: "self.all(k, !k.startsWith('crossplane-') && !k.startsWith('aws:') && k != 'chronoplane.io/uid')",
        message: 'tag keys starting with crossplane- or aws:, and chronoplane.io/uid, are reserved',
      },
      // EC2 takes letters, digits, spaces and _.:/=+-@ in tags; a control character (a NUL, a
      // newline) is never meant, and what EC2 or a reader of its tags makes of one is unsafe to guess.
      {
        rule: `self.all(k, !k.matches('${CONTROL_CHARACTER}') && !self[k].matches('${CONTROL_CHARACTER}'))`,
        message: 'tags: keys and values may not contain control characters (such as NUL, tab or newline)',
      },
    ),
  );

/**
 * A network in canonical CIDR notation: the family asked for, and no host bits set
 * (10.0.0.0/16, not 10.0.0.1/16), so what is sent is what EC2 reports back. The one rule every
 * EC2 kind's CIDR field uses.
 */
export function cidrNetworkRule(field: string, family: 4 | 6, example: string): CelRule {
  return {
    rule: `isCIDR(self) && cidr(self).ip().family() == ${family} && string(cidr(self).masked()) == self`,
    message: `${field} must be an IPv${family} network in canonical CIDR notation (host bits zero), such as ${example}`,
  };
}

/** An EC2 id field that can be set only at creation (most of them: vpcId, subnetId …). */
export const ImmutableId = (field: string, description: string) => Type.Optional(immutable(DocString(description), field));

/**
 * EC2's State and StatusMessage of an association (a VPC's or a subnet's CIDR block, a route
 * table's subnet). `toAssociationState` sits beside it so atProvider always matches the schema.
 */
export const AssociationState = (states: string, message = 'A message about the state.') =>
  Type.Optional(
    Doc('The state of the association.', {
      state: Type.Optional(DocString(states)),
      statusMessage: Type.Optional(DocString(message)),
    }),
  );

export const toAssociationState = (observed: { State?: string; StatusMessage?: string } | undefined) =>
  observed ? { state: observed.State, statusMessage: observed.StatusMessage } : undefined;

/** A VPC's and a subnet's CIDR blocks share EC2's states (VpcCidrBlockState, SubnetCidrBlockState). */
export const CidrBlockState = AssociationState('associating, associated, disassociating, disassociated, failing or failed.');
