// What the API server refuses in every EC2 kind before anything reaches EC2 (issue 21, finding
// 8): control characters in tags, and CIDRs with host bits set. Server-side dry runs of the
// example network's own manifests, so every kind is tried with a spec that is otherwise valid.
import { describe, expect, it } from 'vitest';
import { runKubectl } from '#test/integration/kubectl';
import { managedOnly, networkManifests, type Manifest } from '#test/integration/network';
import { EC2_GROUP, ec2KindFixtures, samplesOfMissingKinds } from '#test/kind-fixtures';
import { managedKinds } from '#providers/registry';

const dryRun = (manifest: Manifest) =>
  runKubectl(
    ['apply', '--dry-run=server', '-n', 'default', '-f', '-'],
    JSON.stringify({ ...manifest, metadata: { name: manifest.metadata.name } }),
  );
const withForProvider = (manifest: Manifest, change: Record<string, unknown>): Manifest => ({
  ...manifest,
  spec: { ...manifest.spec, forProvider: { ...manifest.spec.forProvider, ...change } },
});

const network = await networkManifests();
const examples = managedOnly([...network, ...samplesOfMissingKinds(network, await ec2KindFixtures())]);
/** The EC2 kinds whose spec takes tags (not Route nor RouteTableAssociation, which EC2 does not tag). */
const taggedKinds = managedKinds
  .filter((k) => k.api.group === EC2_GROUP && 'tags' in k.forProvider.properties)
  .map((k) => k.api.kind)
  .sort();
/** One example of each tagged kind. */
const tagged = [...new Map(examples.filter((m) => taggedKinds.includes(m.kind)).map((m) => [m.kind, m])).values()];
const example = (kind: string) => examples.find((m) => m.kind === kind)!;

const CONTROL_CHARACTERS = 'tags: keys and values may not contain control characters';

describe('EC2 admission: tags', () => {
  it('covers every tagged kind', () => {
    expect(taggedKinds.length).toBeGreaterThan(0);
    expect(tagged.map((m) => m.kind).sort()).toEqual(taggedKinds);
  });

  it.each(tagged.map((m) => [m.kind, m] as const))(
    '%s admits tags in any script, and refuses control characters in a key or a value',
    async (_kind, manifest) => {
      await expect(
        dryRun(withForProvider(manifest, { tags: { équipe: 'réseau', チーム: 'ネット', 'a b_c.d:e/f=g+h-i@j': 'ok' } })),
      ).resolves.toContain('(server dry run)');
      for (const tags of [
        { 'nul\u0000key': 'x' },
        { team: 'nul\u0000value' },
        { team: 'line\nbreak' },
        { team: 'tab\there' },
        { team: 'del\u007f' },
        { team: 'c1\u0085' },
      ]) {
        await expect(dryRun(withForProvider(manifest, { tags })), JSON.stringify(tags)).rejects.toThrow(CONTROL_CHARACTERS);
      }
    },
  );
});

describe('EC2 admission: CIDRs', () => {
  it.each([
    ['VPC', '10.0.0.1/16'],
    ['VPC', '10.0.255.0/16'],
    ['Subnet', '10.20.1.7/24'],
    ['Subnet', '10.20.1.0/16x'],
  ])('%s refuses cidrBlock %s, naming the field', async (kind, cidrBlock) => {
    await expect(dryRun(withForProvider(example(kind), { cidrBlock }))).rejects.toThrow(
      'cidrBlock must be an IPv4 network in canonical CIDR notation (host bits zero)',
    );
  });

  it.each([
    ['VPC', '10.0.0.0/16'],
    ['Subnet', '10.20.1.0/24'],
  ])('%s admits cidrBlock %s', async (kind, cidrBlock) => {
    await expect(dryRun(withForProvider(example(kind), { cidrBlock }))).resolves.toContain('(server dry run)');
  });
});
