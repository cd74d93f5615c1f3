// What tests and tools know of the RouteTable kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeRouteTablesCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { routeTableKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: routeTableKind,
  externalName: /^rtb-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeRouteTablesCommand({ Filters }))).RouteTables ?? []).map((t) => ({ id: t.RouteTableId!, tags: t.Tags })),
};
