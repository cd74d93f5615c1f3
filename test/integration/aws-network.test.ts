// The example network (examples/aws-network/) applied as a whole, in any file order, to all
// Ready; then deleted to nothing at the EC2 endpoint in dependency order, with no
// DependencyViolation from EC2 and no object left on its finalizer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEc2CallCounts, summarizeEc2Calls } from '#bench/ec2-call-counter';
import { EC2_GROUP, ec2KindFixtures, isExpectedExternalName } from '#test/kind-fixtures';
import { ControlPlane, condition, eventually } from './harness';
import {
  NETWORK_DIR,
  ec2Calls,
  leftovers,
  managedObjects,
  managedOnly,
  networkFiles,
  networkManifests,
  readManifests,
  useOwnProviderConfig,
  withProviderConfig,
  type Manifest,
} from './network';

let plane: ControlPlane;
let providerConfig: string;
beforeAll(async () => {
  plane = await ControlPlane.start('network');
  providerConfig = await useOwnProviderConfig(plane);
});
afterAll(async () => {
  await plane?.stop();
});

async function manifestsInOrder(order: 'reverse' | 'shuffled'): Promise<Manifest[]> {
  const files = await networkFiles();
  if (order === 'reverse') files.reverse();
  else files.sort((a, b) => hash(a) - hash(b)); // a fixed shuffle, so a failure can be replayed
  return withProviderConfig((await Promise.all(files.map(readManifests))).flat(), providerConfig);
}

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1009, 7);

async function allReady(manifests: Manifest[]): Promise<void> {
  await Promise.all(managedOnly(manifests).map((m) => plane.ready(m.kind, m.metadata.name, 120_000)));
}

/**
 * `kubectl get managed` lists each object Ready and Synced, with the external name its kind
 * gives it: EC2's id, or a key pair's name (test/kind-fixtures.ts).
 */
async function expectListedAsManaged(manifests: readonly Manifest[]): Promise<void> {
  const fixtures = await ec2KindFixtures();
  const table = await plane.kubectl(['get', 'managed']);
  const rows = table.split('\n').filter((line) => line && !line.startsWith('NAME'));
  expect(rows).toHaveLength(manifests.length);
  for (const row of rows) {
    // Several kinds in one listing: each row is named `<kind>.<group>/<name>`.
    const [qualifiedName, ready, synced, externalName] = row.trim().split(/\s+/);
    const manifest = manifests.find((m) => `${m.kind.toLowerCase()}.${EC2_GROUP}/${m.metadata.name}` === qualifiedName);
    expect(manifest, `${qualifiedName} is not an object of the example`).toBeDefined();
    expect([ready, synced], row).toEqual(['True', 'True']);
    const kindFixtures = fixtures.find((f) => f.kind.api.kind === manifest!.kind)!;
    expect(isExpectedExternalName(kindFixtures, manifest!, externalName ?? ''), `${row}: EXTERNAL-NAME of a ${manifest!.kind}`).toBe(true);
  }
}

async function deletedToNothing(deleteAll: () => Promise<unknown>): Promise<void> {
  await deleteAll();
  await eventually(async () => (await managedObjects(plane)).length === 0, 'every managed object to be gone', 120_000);
  expect(await leftovers(plane)).toEqual({});
}

describe('the example network', () => {
  it('applies with `kubectl apply -f examples/aws-network/` to all Ready, and deletes with `kubectl delete -f` to nothing', async () => {
    const manifests = await networkManifests();
    const before = await readEc2CallCounts(plane.ec2Endpoint);
    await plane.kubectl(['apply', '-f', NETWORK_DIR]);
    await allReady(manifests);
    await expectListedAsManaged(managedOnly(manifests));
    const subnet = await plane.getObject('subnet', 'public-a');
    expect(condition(subnet, 'ReferencesResolved')).toMatchObject({ status: 'True' });
    const vpc = await plane.getObject('vpc', 'network');
    expect(subnet!.spec.forProvider.vpcId).toBe(vpc!.metadata.annotations!['crossplane.io/external-name']);
    await deletedToNothing(() => plane.kubectl(['delete', '-f', NETWORK_DIR, '--wait=false']));
    // The verbatim files use the default ProviderConfig, whose access key is "testing"; test
    // files run one at a time, so these are this test's calls.
    const calls = summarizeEc2Calls(before, await readEc2CallCounts(plane.ec2Endpoint), { accessKeyId: 'testing' });
    expect(calls.errors, JSON.stringify(calls.errorsByAction)).not.toHaveProperty('DependencyViolation');
  });

  // The shuffled round runs the watcher inside the worker (CHRONOPLANE_EMBEDDED_WATCHER), where
  // the worker's own writes are not signalled back to it: wake-ups and ordering must not change.
  for (const order of ['reverse', 'shuffled'] as const) {
    const embedded = order === 'shuffled';
    const how = embedded ? ', with the watcher embedded in the worker' : '';
    it(`applies in ${order} file order, then deletes in ${order} order, with no DependencyViolation${how}`, async () => {
      // Each run gets a namespace (and worker and watcher) of its own, so runs never share names.
      const previous = plane;
      plane = await ControlPlane.start(`net-${order.slice(0, 3)}`, embedded ? { CHRONOPLANE_EMBEDDED_WATCHER: 'true' } : {});
      providerConfig = await useOwnProviderConfig(plane);
      await previous.stop();
      const manifests = await manifestsInOrder(order);
      const before = await readEc2CallCounts(plane.ec2Endpoint);
      await plane.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
      await allReady(manifests);
      await expectListedAsManaged(managedOnly(manifests));
      await deletedToNothing(() =>
        plane.kubectl(['delete', '--wait=false', ...manifests.map((m) => `${m.kind.toLowerCase()}/${m.metadata.name}`)]),
      );
      const calls = await ec2Calls(plane, before);
      expect(calls.errors, JSON.stringify(calls.errorsByAction)).not.toHaveProperty('DependencyViolation');
      expect(calls.byAction.DeleteVpc).toBe(1);
    });
  }

  it('explains the generated reference fields', async () => {
    const explained = await plane.kubectl(['explain', 'subnet.spec.forProvider.vpcIdRef']);
    expect(explained).toMatch(/A reference to the VPC whose ID \(its external name\) fills vpcId/);
    expect(await plane.kubectl(['explain', 'subnet.spec.forProvider.vpcIdSelector'])).toMatch(/matchControllerRef/);
  });
});
