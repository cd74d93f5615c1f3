// What tests and tools know of the InternetGateway kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeInternetGatewaysCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { internetGatewayKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: internetGatewayKind,
  externalName: /^igw-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeInternetGatewaysCommand({ Filters }))).InternetGateways ?? []).map((g) => ({
      id: g.InternetGatewayId!,
      tags: g.Tags,
    })),
};
