// What tests and tools know of the SecurityGroupRule kind beyond its registration (see
// test/kind-fixtures.ts). A rule is found in its security group, by what it allows.
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { securityGroupRuleKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: securityGroupRuleKind,
  externalName: /^sgr-[0-9a-f]+$/,
};
