// What tests and tools know of the NATGateway kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeNatGatewaysCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { natGatewayKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: natGatewayKind,
  externalName: /^nat-[0-9a-f]+$/,
  // The call names its parameter Filter; EC2 lists a deleted gateway for about an hour.
  tagged: async (ec2, Filter) =>
    ((await ec2.send(new DescribeNatGatewaysCommand({ Filter }))).NatGateways ?? [])
      .filter((g) => g.State !== 'deleted')
      .map((g) => ({ id: g.NatGatewayId!, tags: g.Tags })),
};
