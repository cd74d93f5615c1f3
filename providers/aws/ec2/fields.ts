// Schema fields every EC2 kind shares, so that their rules and descriptions are written once.
import { Type } from '@sinclair/typebox';
import { DocString, StringMap, immutable, withRules } from '../../../apis/schema';
import { AWS_TAG_LIMITS } from '../tags';

/**
 * A region's shape: us-east-1, eu-central-2, us-gov-west-1, cn-north-1. Checked at admission
 * so a typo fails at once; a well-formed region EC2 does not know fails at the endpoint with
 * a message that names the region and the endpoint (see Ec2Api).
 */
export const REGION_PATTERN = '^[a-z]{2}(-[a-z]+)+-[0-9]+$';

export const Region = (what: string) =>
  immutable(DocString(`The AWS region of the ${what}, such as us-east-1.`, { pattern: REGION_PATTERN, maxLength: 32 }), 'region');

/** Tags as a map, as seed 001 asks; the system tags Chronoplane adds are reserved. */
export const Tags = (what: string) =>
  Type.Optional(
    withRules(
      StringMap(
        `Tags to set on the ${what}. Chronoplane adds crossplane-kind, crossplane-name, crossplane-namespace, crossplane-provider and crossplane-providerconfig.`,
        AWS_TAG_LIMITS,
      ),
      {
        rule: "self.all(k, !k.startsWith('crossplane-') && !k.startsWith('aws:') && k != 'chronoplane.io/uid')",
        message: 'tag keys starting with crossplane- or aws:, and chronoplane.io/uid, are reserved',
      },
    ),
  );

/** An EC2 id field that can be set only at creation (most of them: vpcId, subnetId …). */
export const ImmutableId = (field: string, description: string) => Type.Optional(immutable(DocString(description), field));
