// What tests and tools know of the Route kind beyond its registration (see test/kind-fixtures.ts).
// EC2 gives a route neither id nor tags: it is found in its route table, by destination.
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { routeKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: routeKind,
  // The route table's id and the destination (route/convert.ts, routeExternalName).
  externalName: /^rtb-[0-9a-f]+_\S+$/,
};
