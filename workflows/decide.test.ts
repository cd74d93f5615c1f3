import { describe, expect, it } from 'vitest';
import {
  conditionsAfterFailure,
  decide,
  deletionBlockedBy,
  noExternalAfter,
  onlyReleaseOnceGone,
  ownedExternalAfter,
  secondsUntilNextPass,
  BACKOFF_MAX_SECONDS,
} from './decide';
import { releasableWithoutProvider, type ExternalSnapshot, type ObjectSnapshot, type ReferenceObservation } from '#contract/observation';

const object = (over: Partial<ObjectSnapshot> = {}): ObjectSnapshot => ({
  uid: 'u1',
  generation: 1,
  resourceVersion: '10',
  deleting: false,
  paused: false,
  hasFinalizer: true,
  deletionPolicy: 'Delete',
  managementPolicies: ['*'],
  conditions: [],
  ...over,
});
const missing: ExternalSnapshot = { resourceExists: false, resourceUpToDate: false };
const settled: ExternalSnapshot = { resourceExists: true, resourceUpToDate: true, readiness: 'Available' };
const references = (over: Partial<ReferenceObservation> = {}): ReferenceObservation => ({
  waiting: [],
  errors: [],
  writes: [],
  unmarked: [],
  dependsOnManaged: true,
  ...over,
});

describe('decide', () => {
  it('adds the finalizer before creating a missing external resource', () => {
    const plan = decide(object({ hasFinalizer: false }), missing);
    expect(plan.steps.map((s) => s.kind)).toEqual(['addFinalizer', 'create']);
    expect(plan.conditions).toMatchObject([
      { type: 'Ready', reason: 'Creating' },
      { type: 'Synced', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('pending');
  });

  it('does nothing to a settled resource, which waits as settled (for a sweep, or polls steady)', () => {
    const plan = decide(object(), settled);
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toMatchObject([
      { type: 'Ready', status: 'True', reason: 'Available' },
      { type: 'Synced', status: 'True' },
    ]);
    expect(plan.next).toBe('settled');
  });

  it('updates a drifted resource and re-observes soon', () => {
    const plan = decide(object(), { ...settled, resourceUpToDate: false, diff: 'tag a' });
    expect(plan.steps).toEqual([{ kind: 'update', diff: 'tag a' }]);
    expect(plan.next).toBe('pending');
  });

  it('late-initializes only when the policies allow it', () => {
    const lateInitialized = { instanceTenancy: 'default' };
    expect(decide(object(), { ...settled, lateInitialized }).steps).toEqual([{ kind: 'lateInitialize', fields: lateInitialized }]);
    expect(
      decide(object({ managementPolicies: ['Observe', 'Create', 'Update', 'Delete'] }), { ...settled, lateInitialized }).steps,
    ).toEqual([]);
  });

  it('reports paused without touching anything and waits for a change', () => {
    const plan = decide(object({ paused: true, hasFinalizer: false }), undefined);
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toMatchObject([{ type: 'Synced', status: 'False', reason: 'ReconcilePaused' }]);
    expect(plan.next).toBe('signal');
  });

  it('observe-only never creates, updates or deletes', () => {
    const observeOnly = object({ managementPolicies: ['Observe'] });
    expect(decide(observeOnly, missing).steps).toEqual([]);
    expect(decide(observeOnly, missing).conditions).toMatchObject([
      { type: 'Ready', status: 'False' },
      { type: 'Synced', status: 'False' },
    ]);
    expect(decide(observeOnly, { ...settled, resourceUpToDate: false }).steps).toEqual([]);
    const deletion = decide({ ...observeOnly, deleting: true }, settled);
    expect(deletion.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(deletion.complete).toBe(true);
  });

  it('deletes the external resource before releasing the object', () => {
    const first = decide(object({ deleting: true }), settled);
    expect(first.steps).toEqual([{ kind: 'delete' }]);
    expect(first.conditions[0]).toMatchObject({ type: 'Ready', reason: 'Deleting' });
    expect(first.complete).toBe(false);
    const second = decide(object({ deleting: true }), missing);
    expect(second.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(second.complete).toBe(true);
  });

  it('orphans the external resource when the deletion policy says so', () => {
    const plan = decide(object({ deleting: true, deletionPolicy: 'Orphan' }), settled);
    expect(plan.steps).toEqual([{ kind: 'removeFinalizer' }]);
    expect(plan.complete).toBe(true);
  });

  it('shows a provider error in Synced and backs off', () => {
    const plan = decide(object(), undefined, { providerError: 'AuthFailure: bad keys' });
    expect(plan.conditions).toEqual([{ type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'AuthFailure: bad keys' }]);
    expect(plan.next).toBe('backoff');
  });

  it('reports a provider that does not answer as not Ready too, and while deleting as what the delete waits for', () => {
    const down = 'target cluster (ProviderConfig "remote-1"): cannot get ConfigMap default/c: connect ECONNREFUSED 127.0.0.1:6443';
    const plan = decide(object(), undefined, { providerError: down, providerUnreachable: true });
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Unavailable', message: down },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: down },
    ]);
    expect(plan.next).toBe('backoff');
    const deletingPlan = decide(object({ deleting: true }), undefined, { providerError: down, providerUnreachable: true });
    expect(deletingPlan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Deleting', message: deletionBlockedBy(down) },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: down },
    ]);
  });

  it('says why an unavailable resource is not ready, when the provider can tell', () => {
    const blackhole = 'route to 0.0.0.0/0 is a blackhole: its target (natGatewayId nat-1) is gone or unusable';
    const plan = decide(object(), { ...settled, readiness: 'Unavailable', readinessMessage: blackhole });
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Unavailable', message: blackhole },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('pending');
  });

  it('keeps that message while a reference waits, and leaves Unavailable without one as before', () => {
    const unavailable = { ...settled, readiness: 'Unavailable' as const, readinessMessage: 'target gone' };
    const waiting = decide(object(), unavailable, { references: references({ waiting: ['VPC test/b: not Ready yet'] }) });
    expect(waiting.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'Unavailable', message: 'target gone' });
    const silent = decide(object(), { ...settled, readiness: 'Unavailable' });
    expect(silent.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'Unavailable', message: undefined });
  });
});

describe('decide with references', () => {
  const twoMatches = 'vpcIdSelector {net=main} matches 2 VPCs (a, b); it must select exactly one';

  it('does not create while a reference cannot resolve: ReferencesResolved and Synced are False, and it backs off', () => {
    const plan = decide(object({ hasFinalizer: false }), missing, { references: references({ errors: [twoMatches] }) });
    expect(plan.steps).toEqual([{ kind: 'addFinalizer' }]);
    const message = `cannot resolve references: ${twoMatches}`;
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Creating', message: 'cannot resolve references' },
      { type: 'ReferencesResolved', status: 'False', reason: 'ReferencesUnresolved', message },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message },
    ]);
    expect(plan.next).toBe('backoff');
    expect(plan.complete).toBe(false);
  });

  it('ranks an error above waiting, and writes nothing while in error', () => {
    const plan = decide(object(), missing, {
      references: references({
        errors: ['reference cycle: Subnet test/s \u2192 VPC test/v \u2192 Subnet test/s'],
        waiting: ['VPC test/v: not Ready yet'],
        writes: ['vpcId from VPC test/v'],
        unmarked: ['VPC test/v'],
      }),
    });
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Synced',
        status: 'False',
        message: 'cannot resolve references: reference cycle: Subnet test/s \u2192 VPC test/v \u2192 Subnet test/s',
      }),
    );
    expect(plan.next).toBe('backoff');
  });

  it('keeps the readiness of an existing resource while a reference is in error, and neither updates nor late-initializes it', () => {
    const plan = decide(
      object(),
      { ...settled, resourceUpToDate: false, lateInitialized: { a: 1 } },
      { references: references({ errors: [twoMatches] }) },
    );
    expect(plan.steps).toEqual([]);
    expect(plan.conditions[0]).toEqual({ type: 'Ready', status: 'True', reason: 'Available' });
    expect(plan.next).toBe('backoff');
  });

  it('waits for references that are missing or not Ready, naming them, without creating', () => {
    const plan = decide(object({ hasFinalizer: false }), missing, {
      references: references({ waiting: ['VPC test/a: not found', 'RouteTable test/rt: not Ready yet'] }),
    });
    expect(plan.steps).toEqual([{ kind: 'addFinalizer' }]);
    const message = 'waiting for VPC test/a: not found; RouteTable test/rt: not Ready yet';
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Creating', message },
      { type: 'ReferencesResolved', status: 'False', reason: 'ReferencesUnresolved', message },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('dependency');
    expect(plan.complete).toBe(false);
  });

  it('writes what it has resolved and marks what it depends on, even while it still waits', () => {
    const plan = decide(object(), missing, {
      references: references({
        waiting: ['VPC test/a: not Ready yet'],
        writes: ['vpcIdRef selected by vpcIdSelector {net=main}'],
        unmarked: ['VPC test/a'],
      }),
    });
    expect(plan.steps).toEqual([
      { kind: 'resolveReferences', what: ['vpcIdRef selected by vpcIdSelector {net=main}', 'in-use mark on VPC test/a'] },
    ]);
    expect(plan.next).toBe('dependency');
  });

  it('has no resolveReferences step when there is nothing to write or mark', () => {
    const plan = decide(object(), missing, { references: references({ waiting: ['VPC test/a: not found'] }) });
    expect(plan.steps).toEqual([]);
  });

  it('keeps the readiness of an existing resource while a reference waits, and does not update it', () => {
    const plan = decide(
      object(),
      { ...settled, resourceUpToDate: false, diff: 'vpcId' },
      {
        references: references({ waiting: ['VPC test/b: not Ready yet'] }),
      },
    );
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toMatchObject([
      { type: 'Ready', status: 'True', reason: 'Available' },
      { type: 'ReferencesResolved', status: 'False', message: 'waiting for VPC test/b: not Ready yet' },
      { type: 'Synced', status: 'True' },
    ]);
    expect(plan.next).toBe('dependency');
  });

  it('once resolved: writes the values, reports ReferencesResolved True, then creates as before', () => {
    const plan = decide(object({ hasFinalizer: false }), missing, {
      references: references({ writes: ['vpcId from VPC test/a'], unmarked: ['VPC test/a'] }),
    });
    expect(plan.steps).toEqual([
      { kind: 'addFinalizer' },
      { kind: 'resolveReferences', what: ['vpcId from VPC test/a', 'in-use mark on VPC test/a'] },
      { kind: 'create' },
    ]);
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Creating' },
      { type: 'ReferencesResolved', status: 'True', reason: 'ResolvedReferences' },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('pending');
  });

  it('once resolved: updates and late-initializes an existing resource as before', () => {
    const plan = decide(
      object(),
      { ...settled, resourceUpToDate: false, diff: 'vpcId', lateInitialized: { availabilityZone: 'a' } },
      {
        references: references({ writes: ['vpcId from VPC test/b'] }),
      },
    );
    expect(plan.steps).toEqual([
      { kind: 'resolveReferences', what: ['vpcId from VPC test/b'] },
      { kind: 'lateInitialize', fields: { availabilityZone: 'a' } },
      { kind: 'update', diff: 'vpcId' },
    ]);
    expect(plan.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'ReferencesResolved=True', 'Synced=True']);
  });

  it('once resolved and settled: nothing to do, waits as settled', () => {
    const plan = decide(object(), settled, { references: references() });
    expect(plan.steps).toEqual([]);
    expect(plan.next).toBe('settled');
  });

  it('resolved references do not override the management policies', () => {
    const plan = decide(object({ managementPolicies: ['Observe'] }), missing, { references: references() });
    expect(plan.steps).toEqual([]);
    expect(plan.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=False', 'ReferencesResolved=True', 'Synced=False']);
  });

  it('a paused object reports nothing about its references', () => {
    const plan = decide(object({ paused: true }), undefined, { references: references({ errors: [twoMatches] }) });
    expect(plan.conditions).toMatchObject([{ type: 'Synced', reason: 'ReconcilePaused' }]);
  });

  // An object that no longer refers to anything is observed with `references` undefined; its old
  // ReferencesResolved=False must not stay, or `kubectl describe` says it waits while it is Ready.
  it('clears a ReferencesResolved=False left from before the references were removed', () => {
    const stale = {
      type: 'ReferencesResolved' as const,
      status: 'False' as const,
      reason: 'ReferencesUnresolved',
      message: 'waiting for VPC test/a: not found',
      lastTransitionTime: '2024-05-01T00:00:00Z',
    };
    const plan = decide(object({ conditions: [stale] }), settled, {});
    expect(plan.conditions).toContainEqual(expect.objectContaining({ type: 'ReferencesResolved', status: 'True' }));
  });
});

describe('decide while deleting, with dependencies', () => {
  it('waits in Deleting while dependents exist, naming them, and makes no delete call', () => {
    const plan = decide(object({ deleting: true }), settled, { blockers: ['Subnet test/a', 'Subnet test/b'] });
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'Deleting',
        message: 'waiting for dependents to be deleted first: Subnet test/a, Subnet test/b',
      },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess' },
    ]);
    expect(plan.next).toBe('dependency');
    expect(plan.complete).toBe(false);
  });

  it('deletes once no dependent holds it', () => {
    expect(decide(object({ deleting: true }), settled, { blockers: [] }).steps).toEqual([{ kind: 'delete' }]);
  });

  it('ignores its own unresolved references while deleting', () => {
    const plan = decide(object({ deleting: true }), settled, {
      references: references({ errors: ['reference cycle: …'], waiting: ['VPC test/a: not found'] }),
    });
    expect(plan.steps).toEqual([{ kind: 'delete' }]);
    expect(plan.next).toBe('pending');
  });

  it('releases what it depends on, then removes its finalizer, once the external resource is gone', () => {
    const plan = decide(object({ deleting: true }), missing, {
      references: references({ dependsOnManaged: true }),
      blockers: ['Subnet test/a'],
    });
    expect(plan.steps).toEqual([{ kind: 'releaseDependencies' }, { kind: 'removeFinalizer' }]);
    expect(plan.conditions).toEqual([]);
    expect(plan.complete).toBe(true);
  });

  it('has nothing to release when it depends on no managed object', () => {
    expect(decide(object({ deleting: true }), missing, { references: references({ dependsOnManaged: false }) }).steps).toEqual([
      { kind: 'removeFinalizer' },
    ]);
    expect(decide(object({ deleting: true }), missing, {}).steps).toEqual([{ kind: 'removeFinalizer' }]);
  });

  it('releases its dependencies even when its finalizer is already gone', () => {
    const plan = decide(object({ deleting: true, hasFinalizer: false }), missing, { references: references() });
    expect(plan.steps).toEqual([{ kind: 'releaseDependencies' }]);
    expect(plan.complete).toBe(true);
  });

  it('does not wait for dependents when it orphans the external resource', () => {
    const plan = decide(object({ deleting: true, deletionPolicy: 'Orphan' }), settled, {
      references: references(),
      blockers: ['Subnet test/a'],
    });
    expect(plan.steps).toEqual([{ kind: 'releaseDependencies' }, { kind: 'removeFinalizer' }]);
    expect(plan.complete).toBe(true);
  });
});

describe('onlyReleaseOnceGone: whether a delete that answers gone may release the object in the same call', () => {
  const whenGone = (o: ObjectSnapshot, context: Parameters<typeof decide>[2] = {}) =>
    onlyReleaseOnceGone(decide(o, settled, context), o, settled, context);

  it('holds for a delete after which only the finalizer would go', () => {
    expect(whenGone(object({ deleting: true }))).toBe(true);
    expect(whenGone(object({ deleting: true }), { references: references({ dependsOnManaged: false }) })).toBe(true);
  });

  it('does not hold when the pass after would also release what the object depends on', () => {
    expect(whenGone(object({ deleting: true }), { references: references({ dependsOnManaged: true }) })).toBe(false);
  });

  it('does not hold for a pass that makes no delete call', () => {
    expect(whenGone(object({ deleting: true }), { blockers: ['Subnet test/a'] })).toBe(false);
    expect(whenGone(object({ deleting: true, deletionPolicy: 'Orphan' }))).toBe(false);
    expect(whenGone(object())).toBe(false);
  });
});

describe('decide: releasing an orphan whose provider is broken', () => {
  const brokenProvider = 'ProviderConfig default: not found';
  it.each<{ name: string; over: Partial<ObjectSnapshot> }>([
    { name: 'deletionPolicy Orphan', over: { deletionPolicy: 'Orphan' } },
    { name: 'management policies without Delete', over: { managementPolicies: ['Observe', 'Create', 'Update', 'LateInitialize'] } },
    { name: 'observe-only', over: { managementPolicies: ['Observe'] } },
  ])('$name: released without the error', ({ over }) => {
    const plan = decide(object({ deleting: true, ...over }), undefined, { providerError: brokenProvider });
    expect(plan).toEqual({ steps: [{ kind: 'removeFinalizer' }], conditions: [], next: 'signal', complete: true });
  });

  it('releases what it depends on first', () => {
    const plan = decide(object({ deleting: true, deletionPolicy: 'Orphan' }), undefined, {
      providerError: brokenProvider,
      references: references(),
    });
    expect(plan.steps).toEqual([{ kind: 'releaseDependencies' }, { kind: 'removeFinalizer' }]);
  });

  it('never skips the provider for an object that deletes its external resource', () => {
    const plan = decide(object({ deleting: true }), undefined, { providerError: brokenProvider });
    expect(plan.steps).toEqual([]);
    expect(plan.next).toBe('backoff');
    expect(plan.complete).toBe(false);
  });

  it('does not release an orphan that is not being deleted', () => {
    const plan = decide(object({ deletionPolicy: 'Orphan' }), undefined, { providerError: brokenProvider });
    expect(plan.next).toBe('backoff');
    expect(plan.complete).toBe(false);
  });
});

describe('secondsUntilNextPass', () => {
  const poll = { steadySeconds: 60, pendingSeconds: 5 };
  it('backs off exponentially on consecutive failures, with a cap', () => {
    const waits = [1, 2, 3, 4, 10].map((n) => secondsUntilNextPass('backoff', poll, n));
    expect(waits).toEqual([5, 10, 20, 40, BACKOFF_MAX_SECONDS]);
  });
  it('waits for a dependency by signal, with the steady poll as a safety net', () => {
    expect(secondsUntilNextPass('dependency', poll, 0)).toBe(60);
  });
  it('waits for a signal only when paused', () => {
    expect(secondsUntilNextPass('signal', poll, 0)).toBeUndefined();
    expect(secondsUntilNextPass('steady', poll, 0)).toBe(60);
    expect(secondsUntilNextPass('pending', poll, 0)).toBe(5);
  });
  it('polls a settled resource at the steady interval, unless a sweep watches its kind', () => {
    expect(secondsUntilNextPass('settled', poll, 0)).toBe(60);
    expect(secondsUntilNextPass('settled', { ...poll, safetyNetSeconds: 21_600 }, 0)).toBe(21_600);
    // Only a settled resource waits that long: an absent one that may not be created still polls.
    expect(secondsUntilNextPass('steady', { ...poll, safetyNetSeconds: 21_600 }, 0)).toBe(60);
  });
});

describe('decide: an external resource that another existing object owns', () => {
  const refusal = 'VPC vpc-1 belongs to VPC team-a/main (uid u-a): it is not adopted';
  const theirs: ExternalSnapshot = { resourceExists: true, resourceUpToDate: true, ownedByAnother: refusal };

  it('is neither updated, late-initialized nor tagged: Synced and Ready are False naming the owner, and it backs off', () => {
    const plan = decide(object(), theirs);
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Unavailable', message: refusal },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: refusal },
    ]);
    expect(plan).toMatchObject({ next: 'backoff', complete: false, error: refusal });
  });

  it('refuses even an observe-only object, and before its references', () => {
    const observeOnly = decide(object({ managementPolicies: ['Observe'] }), theirs);
    expect(observeOnly).toMatchObject({ steps: [], error: refusal });
    const withReferences = decide(object(), theirs, { references: references({ writes: ['vpcId from VPC team-b/x'] }) });
    expect(withReferences).toMatchObject({ steps: [], error: refusal });
  });

  it('still adds its finalizer, so that its deletion is seen', () => {
    expect(decide(object({ hasFinalizer: false }), theirs).steps).toEqual([{ kind: 'addFinalizer' }]);
  });

  it('when deleted, lets go without a delete call, whatever the deletion policy and dependents', () => {
    const plan = decide(object({ deleting: true }), theirs, { references: references(), blockers: ['Subnet team-b/s'] });
    expect(plan).toEqual({
      steps: [{ kind: 'releaseDependencies' }, { kind: 'removeFinalizer' }],
      conditions: [],
      next: 'signal',
      complete: true,
    });
  });
});

describe('ownedExternalAfter: which external name a delete may skip looking at', () => {
  const mine = { uid: 'u1', externalName: 'vpc-1' };
  const theirs: ExternalSnapshot = { resourceExists: true, resourceUpToDate: true, ownedByAnother: 'VPC vpc-2 belongs to …' };

  it('is the name a pass saw existing and owned by nobody else', () => {
    expect(ownedExternalAfter(undefined, mine, settled)).toEqual(mine);
    expect(ownedExternalAfter({ uid: 'u1', externalName: 'vpc-0' }, mine, settled)).toEqual(mine);
  });

  it('is kept through passes that learned nothing (a provider error, a paused object, a vanished resource)', () => {
    expect(ownedExternalAfter(mine, mine, undefined)).toEqual(mine);
    expect(ownedExternalAfter(mine, mine, missing)).toEqual(mine);
  });

  it('is forgotten for another name, another object, no name, or a resource another object owns', () => {
    expect(ownedExternalAfter(mine, { uid: 'u1', externalName: 'vpc-2' }, undefined)).toBeUndefined();
    expect(ownedExternalAfter(mine, { uid: 'u2', externalName: 'vpc-1' }, undefined)).toBeUndefined();
    expect(ownedExternalAfter(mine, { uid: 'u1' }, settled)).toBeUndefined();
    expect(ownedExternalAfter(mine, mine, theirs)).toBeUndefined();
    expect(ownedExternalAfter(undefined, { uid: 'u1', externalName: 'vpc-2' }, theirs)).toBeUndefined();
  });
});

describe('deletion that needs no provider', () => {
  const brokenProvider = 'cannot read the kubeconfig: key "kubeconfig" of Secret default/remote not found';
  const nothing = { uid: 'u1' };

  describe('releasableWithoutProvider', () => {
    it('releases an object that orphans its external resource, whatever the workflow knows', () => {
      expect(releasableWithoutProvider(object({ deleting: true, deletionPolicy: 'Orphan', externalName: 'vpc-1' }), undefined)).toBe(
        'it orphans its external resource',
      );
      expect(releasableWithoutProvider(object({ deleting: true, managementPolicies: ['Observe'] }), undefined)).toBe(
        'it orphans its external resource',
      );
    });

    it('releases an object the workflow knows was never created', () => {
      expect(releasableWithoutProvider(object({ deleting: true }), nothing)).toBe('no external resource was ever created for it');
    });

    it('releases an object whose external resource a look found gone, under that same name', () => {
      const gone = { uid: 'u1', externalName: 'vpc-1' };
      expect(releasableWithoutProvider(object({ deleting: true, externalName: 'vpc-1' }), gone)).toBe(
        'its external resource vpc-1 is gone',
      );
      expect(releasableWithoutProvider(object({ deleting: true, externalName: 'vpc-2' }), gone)).toBeUndefined();
    });

    it('needs the provider for an object it knows nothing of, another object, or one named since (adoption)', () => {
      expect(releasableWithoutProvider(object({ deleting: true }), undefined)).toBeUndefined();
      expect(releasableWithoutProvider(object({ deleting: true, uid: 'u2' }), nothing)).toBeUndefined();
      expect(releasableWithoutProvider(object({ deleting: true, externalName: 'vpc-adopted' }), nothing)).toBeUndefined();
    });

    it('never applies to an object that is not being deleted', () => {
      expect(releasableWithoutProvider(object({ deletionPolicy: 'Orphan' }), nothing)).toBeUndefined();
      expect(releasableWithoutProvider(object(), nothing)).toBeUndefined();
    });
  });

  describe('noExternalAfter', () => {
    const fresh = object({ hasFinalizer: false });

    it('knows an object new to the workflow, without our finalizer or an external name, has none', () => {
      expect(noExternalAfter(undefined, fresh, true, undefined)).toEqual(nothing);
      expect(noExternalAfter(undefined, fresh, true, missing)).toEqual(nothing);
      // And keeps knowing it through passes that cannot look (a broken ProviderConfig).
      expect(noExternalAfter(nothing, object(), false, undefined)).toEqual(nothing);
    });

    it('knows nothing of an object new to it that another workflow may have created, or that names a resource', () => {
      expect(noExternalAfter(undefined, object({ hasFinalizer: true }), true, undefined)).toBeUndefined();
      expect(noExternalAfter(undefined, object({ hasFinalizer: false, externalName: 'vpc-adopted' }), true, undefined)).toBeUndefined();
      // A new object under the same name: what was known of the old one does not carry over.
      expect(noExternalAfter({ uid: 'u0' }, object({ hasFinalizer: true }), true, undefined)).toBeUndefined();
    });

    it('forgets it when a pass sees an external resource (an Object whose manifest names an existing target) or a name appears', () => {
      expect(noExternalAfter(nothing, object(), false, settled)).toBeUndefined();
      expect(noExternalAfter(undefined, fresh, true, settled)).toBeUndefined();
      expect(noExternalAfter(nothing, object({ externalName: 'vpc-adopted' }), false, undefined)).toBeUndefined();
    });

    it('learns it when a pass of the deleting object finds its external resource gone', () => {
      const deletingObject = object({ deleting: true, externalName: 'vpc-1' });
      expect(noExternalAfter(undefined, deletingObject, false, missing)).toEqual({ uid: 'u1', externalName: 'vpc-1' });
      // Not while it lives: a resource missing right after its create may only be slow to show.
      expect(noExternalAfter(undefined, object({ externalName: 'vpc-1' }), false, missing)).toBeUndefined();
    });

    it('learns nothing from a snapshot that did not look, or from a resource another object owns', () => {
      const notLooked = { ...missing, notObserved: 'it orphans its external resource' };
      expect(noExternalAfter(undefined, object({ deleting: true, externalName: 'vpc-1' }), false, notLooked)).toBeUndefined();
      const theirs = { ...settled, ownedByAnother: 'VPC vpc-2 belongs to VPC other/x' };
      expect(noExternalAfter(nothing, object(), false, theirs)).toEqual(nothing);
    });
  });

  it('decide releases what the observe activity did not look at: nothing to delete', () => {
    const notLooked = { ...missing, notObserved: 'no external resource was ever created for it' };
    const plan = decide(object({ deleting: true }), notLooked, { references: references() });
    expect(plan).toEqual({
      steps: [{ kind: 'releaseDependencies' }, { kind: 'removeFinalizer' }],
      conditions: [],
      next: 'signal',
      complete: true,
    });
  });

  it('while the provider a delete needs fails: Ready=False Deleting saying so, Synced=False with the error, and backoff', () => {
    const plan = decide(object({ deleting: true, externalName: 'vpc-1' }), undefined, { providerError: brokenProvider });
    expect(plan.steps).toEqual([]);
    expect(plan.conditions).toEqual([
      { type: 'Ready', status: 'False', reason: 'Deleting', message: deletionBlockedBy(brokenProvider) },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: brokenProvider },
    ]);
    expect(deletionBlockedBy(brokenProvider)).toContain('deletionPolicy: Orphan');
    expect(plan.next).toBe('backoff');
    expect(plan.complete).toBe(false);
  });
});

describe('conditionsAfterFailure', () => {
  const unreachable = 'cannot create VPC: cannot reach EC2 in region us-east-1 at http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1';
  const createPlan = decide(object(), missing);

  it('a create the provider never answered: Ready=False Unavailable and Synced=False, both with the message', () => {
    expect(conditionsAfterFailure(createPlan, unreachable, { unreachable: true })).toEqual([
      { type: 'Ready', status: 'False', reason: 'Unavailable', message: unreachable },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: unreachable },
    ]);
  });

  it('any other failure: Ready as planned, Synced=False with the message', () => {
    const invalid = "InvalidVpc.Range: The CIDR '10.0.0.0/8' is invalid.";
    expect(conditionsAfterFailure(createPlan, invalid)).toEqual([
      { type: 'Ready', status: 'False', reason: 'Creating', message: undefined },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: invalid },
    ]);
  });

  it('a delete stays Deleting, reachable or not, and says what it waits for', () => {
    const deletePlan = decide(object({ deleting: true }), settled);
    expect(conditionsAfterFailure(deletePlan, unreachable, { unreachable: true })).toEqual([
      { type: 'Ready', status: 'False', reason: 'Deleting', message: deletionBlockedBy(unreachable) },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: unreachable },
    ]);
  });
});
