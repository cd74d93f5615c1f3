// What tests and tools know of the Address kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeAddressesCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { addressKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: addressKind,
  // An allocation's id: the kind is for VPC addresses only.
  externalName: /^eipalloc-[0-9a-f]+$/,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeAddressesCommand({ Filters }))).Addresses ?? []).map((a) => ({ id: a.AllocationId!, tags: a.Tags })),
};
