// What tests and tools know of the Instance kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { instanceKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: instanceKind,
  externalName: /^i-[0-9a-f]+$/,
  // EC2 lists a terminated instance for about an hour.
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeInstancesCommand({ Filters }))).Reservations ?? [])
      .flatMap((r) => r.Instances ?? [])
      .filter((i) => i.State?.Name !== 'terminated')
      .map((i) => ({ id: i.InstanceId!, tags: i.Tags })),
};
