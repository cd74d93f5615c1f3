// What tests and tools know of the SecurityGroup kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeSecurityGroupsCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { securityGroupKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: securityGroupKind,
  externalName: /^sg-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeSecurityGroupsCommand({ Filters }))).SecurityGroups ?? []).map((g) => ({ id: g.GroupId!, tags: g.Tags })),
};
