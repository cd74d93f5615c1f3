// What tests and tools know of the Subnet kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeSubnetsCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { subnetKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: subnetKind,
  externalName: /^subnet-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeSubnetsCommand({ Filters }))).Subnets ?? []).map((s) => ({ id: s.SubnetId!, tags: s.Tags })),
};
