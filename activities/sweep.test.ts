// The sweep activity over a made-up kind: what it lists, whom it observes together, and whom it
// wakes. The provider is a stub that records each observeMany call.
import { describe, expect, it } from 'vitest';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, ExternalClient, SweptObservation } from '#core/external-client';
import type { ManagedKind } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { createSweepActivities } from './sweep';

const api = {
  group: 'test.chronoplane.io',
  version: 'v1',
  kind: 'Thing',
  plural: 'things',
  singular: 'thing',
  shortNames: [],
  categories: [],
  description: '',
};
const condition = (type: 'Ready' | 'Synced') => ({
  type,
  status: 'True' as const,
  reason: 'r',
  lastTransitionTime: '2026-01-01T00:00:00Z',
});

function thing(name: string, region: string, over: { settled?: boolean; config?: string } = {}): ManagedResource {
  return {
    apiVersion: 'test.chronoplane.io/v1',
    kind: 'Thing',
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      generation: 3,
      resourceVersion: `rv-${name}`,
      annotations: { 'crossplane.io/external-name': `ext-${name}` },
    },
    spec: { forProvider: { region }, providerConfigRef: over.config ? { name: over.config } : undefined },
    status: { conditions: over.settled === false ? [] : [condition('Ready'), condition('Synced')], atProvider: { id: `ext-${name}` } },
  };
}

/** A kind whose provider answers from `external` (by name), and fails for region `broken-1`. */
function stubKind(external: Record<string, SweptObservation>, observed: string[][]): ManagedKind {
  const client: Pick<ExternalClient<unknown, unknown>, 'observeMany'> = {
    async observeMany(mrs) {
      observed.push(mrs.map((mr) => mr.metadata.name));
      if (mrs.some((mr) => mr.spec.forProvider && (mr.spec.forProvider as { region: string }).region === 'broken-1')) {
        throw new ClassifiedError('NotAuthorized', 'cannot describe things: AuthFailure');
      }
      return new Map(mrs.map((mr) => [mr.metadata.uid, external[mr.metadata.name]!]));
    },
  };
  return {
    api,
    forProvider: {} as ManagedKind['forProvider'],
    atProvider: {} as ManagedKind['atProvider'],
    connector: { connect: async () => client as ExternalClient<unknown, unknown> },
    poll: { steadySeconds: 60, pendingSeconds: 5, safetyNetSeconds: 21_600 },
    bulkObservation: {
      scopeOf: (mr) => `${mr.spec.providerConfigRef?.name ?? 'default'}/${(mr.spec.forProvider as { region: string }).region}`,
      unsweptFields: [],
    },
  };
}

const inSync = (name: string): SweptObservation => ({
  resourceExists: true,
  resourceUpToDate: true,
  readiness: 'Available',
  atProvider: { id: `ext-${name}` },
});

describe('sweepKind', () => {
  it('observes the settled resources one scope at a time and wakes only those that need a look', async () => {
    const objects = [
      thing('a', 'us-east-1'),
      thing('b', 'us-east-1'),
      thing('c', 'eu-west-1'),
      thing('d', 'us-east-1', { config: 'other' }),
      thing('pending', 'us-east-1', { settled: false }),
    ];
    const observed: string[][] = [];
    const kind = stubKind(
      {
        a: inSync('a'),
        b: { ...inSync('b'), resourceUpToDate: false, diff: 'tag team: want "net"' },
        c: { resourceExists: false, resourceUpToDate: false },
        d: inSync('d'),
      },
      observed,
    );
    const listedIn: (string | undefined)[] = [];
    const { sweepKind } = createSweepActivities(
      async (listedApi, namespace) => {
        expect(listedApi).toBe(api);
        listedIn.push(namespace);
        return objects;
      },
      {} as ConnectContext,
      { kindFor: () => kind },
    );

    const outcome = await sweepKind({ group: api.group, kind: api.kind, namespace: 'ns' });
    expect(listedIn).toEqual(['ns']);
    expect(observed).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(outcome).toEqual({
      intervalSeconds: 60,
      listed: 5,
      swept: 4,
      scopes: 3,
      failures: [],
      failedScopes: [],
      wake: [
        {
          ref: { group: api.group, kind: 'Thing', namespace: 'ns', name: 'b' },
          uid: 'uid-b',
          resourceVersion: 'rv-b',
          generation: 3,
          reason: 'drifted: tag team: want "net"',
        },
        {
          ref: { group: api.group, kind: 'Thing', namespace: 'ns', name: 'c' },
          uid: 'uid-c',
          resourceVersion: 'rv-c',
          generation: 3,
          reason: 'its external resource is gone',
        },
      ],
    });
  });

  it('wakes every resource of a scope it cannot observe, so each reports the error itself, and sweeps the others', async () => {
    const observed: string[][] = [];
    const kind = stubKind({ ok: inSync('ok') }, observed);
    const { sweepKind } = createSweepActivities(
      async () => [thing('x', 'broken-1'), thing('y', 'broken-1'), thing('ok', 'us-east-1')],
      {} as ConnectContext,
      {
        kindFor: () => kind,
        intervalOverrideSeconds: 3,
      },
    );
    const outcome = await sweepKind({ group: api.group, kind: api.kind });
    expect(outcome.intervalSeconds).toBe(3);
    expect(outcome.failures).toEqual(['default/broken-1: cannot describe things: AuthFailure']);
    expect(outcome.failedScopes).toEqual(['default/broken-1']);
    expect(outcome.wake.map((w) => [w.ref.name, w.reason])).toEqual([
      ['x', 'the sweep cannot observe it: cannot describe things: AuthFailure'],
      ['y', 'the sweep cannot observe it: cannot describe things: AuthFailure'],
    ]);
  });

  it('wakes the unsettled resources of a scope it could not read once that scope answers again, and no others', async () => {
    const observed: string[][] = [];
    const kind = stubKind({ down: inSync('down'), settled: inSync('settled') }, observed);
    const { sweepKind } = createSweepActivities(
      async () => [
        thing('down', 'us-east-1', { settled: false }),
        thing('settled', 'us-east-1'),
        thing('elsewhere', 'eu-west-1', { settled: false }),
      ],
      {} as ConnectContext,
      { kindFor: () => kind },
    );
    const outcome = await sweepKind({ group: api.group, kind: api.kind }, ['default/us-east-1']);
    expect(observed).toEqual([['settled', 'down']]);
    expect(outcome.wake.map((w) => [w.ref.name, w.reason])).toEqual([['down', 'the provider answers again']]);
    expect(outcome.failedScopes).toEqual([]);
  });

  it('keeps asking a scope whose resources are all unsettled until it answers, waking none of them meanwhile', async () => {
    const observed: string[][] = [];
    const kind = stubKind({}, observed);
    const { sweepKind } = createSweepActivities(async () => [thing('x', 'broken-1', { settled: false })], {} as ConnectContext, {
      kindFor: () => kind,
    });
    const outcome = await sweepKind({ group: api.group, kind: api.kind }, ['default/broken-1']);
    expect(observed).toEqual([['x']]);
    expect(outcome.failedScopes).toEqual(['default/broken-1']);
    expect(outcome.wake).toEqual([]); // its own backoff is under way
  });

  it('refuses a kind without bulk observation, for good', async () => {
    const kind = { ...stubKind({}, []), bulkObservation: undefined };
    const { sweepKind } = createSweepActivities(async () => [], {} as ConnectContext, { kindFor: () => kind });
    await expect(sweepKind({ group: api.group, kind: api.kind })).rejects.toMatchObject({ nonRetryable: true, type: 'NoBulkObservation' });
  });
});
