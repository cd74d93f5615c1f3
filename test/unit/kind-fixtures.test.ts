import { describe, expect, it } from 'vitest';
import { managedKinds } from '#providers/registry';
import {
  EC2_GROUP,
  ec2KindFixtures,
  isExpectedExternalName,
  samplesOfMissingKinds,
  type Ec2KindFixtures,
  type KindManifest,
} from '#test/kind-fixtures';

const manifest = (kind: string, name: string, forProvider: Record<string, unknown> = {}): KindManifest => ({
  apiVersion: `${EC2_GROUP}/v1alpha1`,
  kind,
  metadata: { name },
  spec: { forProvider },
});

describe('the EC2 kinds’ fixtures', () => {
  it('are there for every registered EC2 kind, one each, in registry order', async () => {
    const registered = managedKinds.filter((k) => k.api.group === EC2_GROUP).map((k) => k.api.kind);
    expect(registered.length).toBeGreaterThan(0);
    expect((await ec2KindFixtures()).map((f) => f.kind.api.kind)).toEqual(registered);
  });

  it('match whole external names, not a part of one', async () => {
    for (const { kind, externalName } of await ec2KindFixtures()) {
      if (externalName instanceof RegExp) expect(externalName.source, kind.api.kind).toMatch(/^\^.*\$$/);
    }
  });

  it('know a key pair by the name it asks EC2 for: the spec’s, else the object’s', async () => {
    const keyPair = (await ec2KindFixtures()).find((f) => f.kind.api.kind === 'KeyPair')!;
    expect(isExpectedExternalName(keyPair, manifest('KeyPair', 'admin'), 'admin')).toBe(true);
    expect(isExpectedExternalName(keyPair, manifest('KeyPair', 'admin', { keyName: 'ops' }), 'ops')).toBe(true);
    expect(isExpectedExternalName(keyPair, manifest('KeyPair', 'admin', { keyName: 'ops' }), 'admin')).toBe(false);
    const vpc = (await ec2KindFixtures()).find((f) => f.kind.api.kind === 'VPC')!;
    expect(isExpectedExternalName(vpc, manifest('VPC', 'network'), 'vpc-0a1b2c3d')).toBe(true);
    expect(isExpectedExternalName(vpc, manifest('VPC', 'network'), 'subnet-0a1b2c3d')).toBe(false);
  });
});

describe('samplesOfMissingKinds', () => {
  const [vpc, gateway] = managedKinds.filter((k) => k.api.kind === 'VPC' || k.api.kind === 'InternetGateway');
  const fixtures = (sampled: boolean): Ec2KindFixtures[] => [
    { kind: vpc!, externalName: /^vpc-[0-9a-f]+$/ },
    {
      kind: gateway!,
      externalName: /^igw-[0-9a-f]+$/,
      ...(sampled
        ? {
            sample: (name: string) => [
              manifest('VPC', `${name}-vpc`),
              manifest('InternetGateway', name, { vpcIdRef: { name: `${name}-vpc` } }),
            ],
          }
        : {}),
    },
  ];

  it('adds nothing when the manifests hold every kind', () => {
    expect(samplesOfMissingKinds([manifest('VPC', 'a'), manifest('InternetGateway', 'b')], fixtures(true))).toEqual([]);
  });

  it('adds the sample of a missing kind, the object last, named after the kind', () => {
    const added = samplesOfMissingKinds([manifest('VPC', 'a')], fixtures(true));
    expect(added.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
      'VPC/sample-internetgateway-vpc',
      'InternetGateway/sample-internetgateway',
    ]);
  });

  it('names a missing kind that has no sample', () => {
    expect(() => samplesOfMissingKinds([manifest('VPC', 'a')], fixtures(false))).toThrow(/InternetGateway: not in examples\/aws-network\//);
  });
});
