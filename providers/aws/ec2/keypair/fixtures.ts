// What tests and tools know of the KeyPair kind beyond its registration (see test/kind-fixtures.ts).
import { DescribeKeyPairsCommand } from '@aws-sdk/client-ec2';
import type { Ec2KindFixtures } from '#test/kind-fixtures';
import { keyPairKind } from './index';

export const fixtures: Ec2KindFixtures = {
  kind: keyPairKind,
  // A key pair goes by its name: the spec's keyName, else the object's own name.
  externalName: (object) => (object.spec.forProvider.keyName as string | undefined) ?? object.metadata.name,
  tagged: async (ec2, Filters) =>
    ((await ec2.send(new DescribeKeyPairsCommand({ Filters }))).KeyPairs ?? []).map((k) => ({ id: k.KeyName!, tags: k.Tags })),
};
