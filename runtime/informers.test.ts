// The shared informer's own contract, fed in-process: lists page by page, trims before caching,
// and says how far it has applied the kind's changes only while it is watching.
import { describe, expect, it } from 'vitest';
import { KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { KindApi } from '#core/managed-kind';
import { watchKind } from './informers';

const api = { group: 'ec2.aws.chronoplane.io', version: 'v1alpha1', kind: 'VPC', plural: 'vpcs' } as KindApi;
const object = (name: string): KubernetesObject => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '5', managedFields: [{ manager: 'kubectl' }] },
});

describe('watchKind', () => {
  it('lists every page from one snapshot, caches objects without managedFields, and reports the list’s version', async () => {
    const pages: Record<string, KubernetesListObject<KubernetesObject>> = {
      first: { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '7', _continue: 'second' }, items: [object('a')] },
      second: { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '7' }, items: [object('b')] },
    };
    const asked: (string | undefined)[] = [];
    const events: string[] = [];
    const informer = watchKind(new KubeConfig(), api, {
      onError: () => {},
      onEvent: (_api, obj, type) => events.push(`${type} ${obj.metadata?.name}`),
      source: {
        list: async (token) => (asked.push(token), pages[token ?? 'first']!),
        watch: { watch: async () => new AbortController() },
      },
    });
    expect(informer.appliedResourceVersion()).toBeUndefined();
    await informer.start();
    expect(asked).toEqual([undefined, 'second']);
    expect(events).toEqual(['ADDED a', 'ADDED b']);
    expect(informer.get('ns', 'b')?.metadata).toEqual({ name: 'b', namespace: 'ns', uid: 'uid-b', resourceVersion: '5' });
    expect(informer.appliedResourceVersion()).toBe('7');
    await informer.stop();
    expect(informer.appliedResourceVersion()).toBeUndefined();
  });
});
