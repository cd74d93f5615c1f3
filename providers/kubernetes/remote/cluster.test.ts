// When the shared watch answers a read, and when the target's server must: an owner being
// deleted releases its target on "absent", so that answer must never be a watch that lags
// (another worker's pass made the target, or this watch has not caught up). The watch and the
// API client are played in memory; the watch's own behaviour is in target-watches' tests.
import type { KubeConfig } from '@kubernetes/client-node';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ManagedResource } from '#core/managed-resource';

const fakes = vi.hoisted(() => {
  const state = {
    /** What the watch answers: an object, null (absent) or undefined (cannot answer yet). */
    watched: undefined as object | null | undefined,
    /** What the server holds. */
    onServer: undefined as object | undefined,
    serverReads: 0,
  };
  class FakeWatches {
    confine(): void {}
    follow(): void {}
    async cached(): Promise<object | null | undefined> {
      return state.watched;
    }
  }
  const api = {
    async read(): Promise<object> {
      state.serverReads++;
      if (state.onServer) return state.onServer;
      const { ApiException } = await import('@kubernetes/client-node');
      throw new ApiException(404, 'not found', { kind: 'Status', code: 404 }, {});
    },
  };
  class FakeStrictApplyObjectApi {
    static forConfig() {
      return api;
    }
  }
  return { state, FakeWatches, FakeStrictApplyObjectApi };
});
vi.mock('../target-watches', () => ({ TargetWatches: fakes.FakeWatches }));
vi.mock('./strict-apply', () => ({ StrictApplyObjectApi: fakes.FakeStrictApplyObjectApi }));

const { RemoteCluster } = await import('./cluster');

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'team-a', resourceVersion: '7' } };
const key = { cluster: 'k', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team-a', name: 'c' };
const remote = new RemoteCluster({ key: 'k', kubeConfig: {} as KubeConfig }, 'target cluster (ProviderConfig "p")', undefined);

function owner(deleting: boolean): ManagedResource {
  return {
    apiVersion: 'kubernetes.crossplane.io/v1alpha2',
    kind: 'Object',
    metadata: { name: 'o', uid: 'uid-o', ...(deleting ? { deletionTimestamp: '2026-11-28T01:00:00Z' } : {}) },
    spec: { forProvider: {} },
  } as unknown as ManagedResource;
}

beforeEach(() => {
  fakes.state.watched = undefined;
  fakes.state.onServer = undefined;
  fakes.state.serverReads = 0;
});

describe('RemoteCluster.read', () => {
  it('answers from the watch, present or absent, for an owner that is not being deleted', async () => {
    fakes.state.watched = configMap;
    expect(await remote.read(owner(false), key)).toEqual(configMap);
    fakes.state.watched = null;
    expect(await remote.read(owner(false), key)).toBeUndefined();
    expect(fakes.state.serverReads).toBe(0);
  });

  it('asks the server when the watch cannot answer yet', async () => {
    fakes.state.onServer = configMap;
    expect(await remote.read(owner(false), key)).toEqual(configMap);
    expect(fakes.state.serverReads).toBe(1);
  });

  it('does not take a target for gone on the watch’s word while its owner is being deleted', async () => {
    fakes.state.watched = null;
    fakes.state.onServer = configMap;
    expect(await remote.read(owner(true), key)).toEqual(configMap);
    expect(fakes.state.serverReads).toBe(1);
  });

  it('takes a deleting owner’s absent target for gone once the server says so', async () => {
    fakes.state.watched = null;
    expect(await remote.read(owner(true), key)).toBeUndefined();
    expect(fakes.state.serverReads).toBe(1);
  });

  it('answers a deleting owner’s present target from the watch: the delete that follows asks the server anyway', async () => {
    fakes.state.watched = configMap;
    expect(await remote.read(owner(true), key)).toEqual(configMap);
    expect(fakes.state.serverReads).toBe(0);
  });

  it('asks the server whenever the caller wants a fresh answer', async () => {
    fakes.state.watched = configMap;
    fakes.state.onServer = { ...configMap, metadata: { ...configMap.metadata, resourceVersion: '8' } };
    expect(await remote.read(owner(false), key, { fresh: true })).toMatchObject({ metadata: { resourceVersion: '8' } });
  });
});
