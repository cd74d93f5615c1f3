// Which object owns an untagged external resource, from a stand-in control plane's list of
// objects: the one that mirrors it, else the oldest that records it, whoever asks, and only ever
// another object.
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ConnectContext } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { RecordedOwners } from './recorded-owners';
import { routeApi } from './route/schema';

const NAME = 'rtb-1_10.0.0.0/16';
const route = (uid: string, created: string, externalName?: string, namespace = 'team-a', atProvider?: object) => ({
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'Route',
  metadata: {
    name: `route-${uid}`,
    namespace,
    uid,
    generation: 1,
    resourceVersion: '1',
    creationTimestamp: created,
    annotations: externalName ? { [EXTERNAL_NAME]: externalName } : {},
  },
  spec: { forProvider: {} },
  ...(atProvider ? { status: { atProvider } } : {}),
});

function ownersAmong(objects: ReturnType<typeof route>[]) {
  const listed: unknown[] = [];
  const forgotten: string[] = [];
  let wakesFor: ((obj: Record<string, unknown>) => boolean) | undefined;
  const context: ConnectContext = {
    getClusterObject: async () => undefined,
    getSecretValue: async () => undefined,
    async listControlObjects(scope, _dependent, wakes) {
      listed.push(scope);
      wakesFor = wakes;
      return objects;
    },
    forgetControlObjects: (uid) => void forgotten.push(uid),
  };
  return {
    owners: new RecordedOwners(routeApi, nameMirrored, context),
    listed,
    forgotten,
    wakesFor: (obj: object) => wakesFor!(obj as never),
  };
}
/** As the Route kind names what its status mirrors (route/client.ts). */
const nameMirrored = (at: { routeTableId?: string; destinationCidrBlock?: string }) =>
  at.routeTableId && at.destinationCidrBlock ? `${at.routeTableId}_${at.destinationCidrBlock}` : undefined;
const MIRRORED = { routeTableId: 'rtb-1', destinationCidrBlock: '10.0.0.0/16', state: 'active' };
const asResource = (o: ReturnType<typeof route>) => o as unknown as ManagedResource<unknown, unknown>;

describe('RecordedOwners', () => {
  const first = route('b-first', '2026-01-01T00:00:00Z', NAME);
  const second = route('a-second', '2026-01-01T00:00:05Z', NAME, 'team-b');

  it('names the older recorder to the newer one, across namespaces, and nobody to the older one', async () => {
    const { owners, listed } = ownersAmong([second, first]);
    await expect(owners.ownerBefore(asResource(second), NAME)).resolves.toEqual({
      uid: 'b-first',
      kind: 'route.ec2.aws.chronoplane.io',
      namespace: 'team-a',
      name: 'route-b-first',
    });
    await expect(owners.ownerBefore(asResource(first), NAME)).resolves.toBeUndefined();
    expect(listed[0]).toEqual({ apiVersion: 'ec2.aws.chronoplane.io/v1alpha1', kind: 'Route', namespace: '' });
  });

  it('wakes the newer one only when the owner lets go, and stops following once nobody owns it before it', async () => {
    const { owners, wakesFor, forgotten } = ownersAmong([second, first]);
    await owners.ownerBefore(asResource(second), NAME);
    expect(forgotten).toEqual([]);
    expect(wakesFor(first)).toBe(false); // a status write of the owner
    expect(wakesFor(route('b-first', first.metadata.creationTimestamp, 'rtb-1_10.1.0.0/16'))).toBe(true); // another name
    expect(wakesFor({ ...first, metadata: { ...first.metadata, deletionTimestamp: '2026-01-02T00:00:00Z' } })).toBe(true);
    expect(wakesFor(route('x-third', '2026-01-03T00:00:00Z', NAME))).toBe(false);

    await owners.ownerBefore(asResource(first), NAME);
    expect(forgotten).toEqual(['b-first']);
  });

  it('names any recorder to an object that does not record the name yet (a create about to adopt)', async () => {
    const late = route('z-late', '2025-01-01T00:00:00Z');
    const { owners } = ownersAmong([first, late]);
    await expect(owners.ownerBefore(asResource(late), NAME)).resolves.toMatchObject({ uid: 'b-first' });
  });

  it('breaks a tie in creation time by uid, the same way for both', async () => {
    const twin = route('a-twin', '2026-01-01T00:00:00Z', NAME);
    const { owners } = ownersAmong([first, twin]);
    await expect(owners.ownerBefore(asResource(first), NAME)).resolves.toMatchObject({ uid: 'a-twin' });
    await expect(owners.ownerBefore(asResource(twin), NAME)).resolves.toBeUndefined();
  });

  it('keeps the resource with the object that mirrors it against a name set by hand within the same second', async () => {
    // Creation times count whole seconds: Route "first" made the route and went Ready at
    // 00:00:00.3, and "third", applied at 00:00:00.9 with the same name set by hand, sorts
    // before it by uid. The CI run of 2026-11-28 01:26 saw that third take the route over.
    const owner = route('z-owner', '2026-01-01T00:00:00Z', NAME, 'team-a', MIRRORED);
    const byHand = route('a-by-hand', '2026-01-01T00:00:00Z', NAME, 'team-b');
    const { owners } = ownersAmong([byHand, owner]);
    await expect(owners.ownerBefore(asResource(byHand), NAME)).resolves.toMatchObject({ uid: 'z-owner', namespace: 'team-a' });
    await expect(owners.ownerBefore(asResource(owner), NAME)).resolves.toBeUndefined();
  });

  it('keeps it with the object that mirrors it against an older one that names it by hand later (kubectl annotate)', async () => {
    const older = route('a-older', '2025-01-01T00:00:00Z', NAME, 'team-b');
    const owner = route('z-owner', '2026-01-01T00:00:00Z', NAME, 'team-a', MIRRORED);
    const { owners } = ownersAmong([older, owner]);
    await expect(owners.ownerBefore(asResource(older), NAME)).resolves.toMatchObject({ uid: 'z-owner' });
    await expect(owners.ownerBefore(asResource(owner), NAME)).resolves.toBeUndefined();
  });

  it('does not count a status that mirrors another route: an owner renamed by hand to this one gains nothing from it', async () => {
    const renamed = route('a-renamed', '2025-06-01T00:00:00Z', NAME, 'team-b', { ...MIRRORED, destinationCidrBlock: '10.9.0.0/16' });
    const owner = route('z-owner', '2026-01-01T00:00:00Z', NAME, 'team-a', MIRRORED);
    const { owners } = ownersAmong([renamed, owner]);
    await expect(owners.ownerBefore(asResource(renamed), NAME)).resolves.toMatchObject({ uid: 'z-owner' });
    await expect(owners.ownerBefore(asResource(owner), NAME)).resolves.toBeUndefined();
  });

  it('ignores objects that record another name, and itself', async () => {
    const other = route('c-other', '2020-01-01T00:00:00Z', 'rtb-1_10.9.0.0/16');
    const { owners } = ownersAmong([other, first]);
    await expect(owners.ownerBefore(asResource(first), NAME)).resolves.toBeUndefined();
  });

  it('checks nothing where the control plane cannot be read', async () => {
    await expect(new RecordedOwners(routeApi, nameMirrored, undefined).ownerBefore(asResource(second), NAME)).resolves.toBeUndefined();
  });
});
