// What tests and tools know of the VPC kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeVpcsCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { vpcKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: vpcKind,
  externalName: /^vpc-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeVpcsCommand({ Filters }))).Vpcs ?? []).map((v) => ({ id: v.VpcId!, tags: v.Tags })),
};
