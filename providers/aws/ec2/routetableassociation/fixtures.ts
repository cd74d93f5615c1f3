// What tests and tools know of the RouteTableAssociation kind beyond its registration (see
// test/kind-fixtures.ts). EC2 gives an association no tags: it is found in its route table.
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { routeTableAssociationKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: routeTableAssociationKind,
  externalName: /^rtbassoc-[0-9a-f]+$/,
};
