import { describe, expect, it, vi } from 'vitest';
import { EXTERNAL_NAME } from '#core/annotations';
import type { ConnectContext } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import { scheduledCluster } from './scheduling';

const controller = {
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  name: 'wordpress-demo',
  uid: 'app-uid',
  controller: true,
};
const resource = (extra: { ownerReferences?: unknown[]; status?: Record<string, unknown> } = {}) =>
  ({
    metadata: { name: 'wordpress-demo-namespace', namespace: 'complex', uid: 'kar-uid', ownerReferences: extra.ownerReferences },
    spec: { template: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wordpress' } } },
    status: extra.status,
  }) as unknown as ManagedResource<unknown, unknown>;
const application = (annotations: Record<string, string> = {}, uid = 'app-uid') => ({
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  metadata: { name: 'wordpress-demo', namespace: 'complex', uid, annotations },
});
const contextWith = (app: Record<string, unknown> | undefined) => {
  const readControlObject = vi.fn(async () => app);
  const forgetControlObjects = vi.fn();
  return { context: { readControlObject, forgetControlObjects } as unknown as ConnectContext, readControlObject, forgetControlObjects };
};
const appKey = {
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  namespace: 'complex',
  name: 'wordpress-demo',
};
const clusterRef = {
  apiVersion: 'compute.crossplane.io/v1alpha1',
  kind: 'KubernetesCluster',
  namespace: 'complex',
  name: 'wordpress-demo-cluster',
};

describe('scheduledCluster', () => {
  it('is the cluster its application was scheduled to, and stops following the application once it is', async () => {
    const { context, readControlObject, forgetControlObjects } = contextWith(application({ [EXTERNAL_NAME]: 'wordpress-demo-cluster' }));
    const mr = resource({ ownerReferences: [controller] });
    expect(await scheduledCluster(mr, context)).toEqual(clusterRef);
    expect(readControlObject).toHaveBeenCalledWith(appKey, mr);
    expect(forgetControlObjects).toHaveBeenCalledWith('kar-uid', appKey);
  });

  it('is the one recorded in status once known, without reading the application (which may be gone)', async () => {
    const { context, readControlObject } = contextWith(undefined);
    expect(
      await scheduledCluster(resource({ ownerReferences: [controller], status: { clusterRef, state: 'Submitted' } }), context),
    ).toEqual(clusterRef);
    expect(readControlObject).not.toHaveBeenCalled();
  });

  it('is not scheduled while the application is not, and keeps following it so that its scheduling wakes the resource', async () => {
    const { context, forgetControlObjects } = contextWith(application());
    await expect(scheduledCluster(resource({ ownerReferences: [controller] }), context)).rejects.toMatchObject({
      failureClass: 'MissingConfiguration',
      message: 'not scheduled: its KubernetesApplication wordpress-demo is not scheduled to a KubernetesCluster yet',
    });
    expect(forgetControlObjects).not.toHaveBeenCalled();
  });

  it('is not scheduled without a controlling application, or when the application is another one by that name', async () => {
    const { context } = contextWith(application({ [EXTERNAL_NAME]: 'c' }, 'other-uid'));
    await expect(scheduledCluster(resource(), context)).rejects.toMatchObject({
      failureClass: 'MissingConfiguration',
      message: 'not scheduled: KubernetesApplicationResource complex/wordpress-demo-namespace is not controlled by a KubernetesApplication',
    });
    await expect(scheduledCluster(resource({ ownerReferences: [{ ...controller, controller: false }] }), context)).rejects.toThrow(
      /not controlled by a KubernetesApplication/,
    );
    await expect(scheduledCluster(resource({ ownerReferences: [controller] }), context)).rejects.toThrow(
      'not scheduled: its KubernetesApplication wordpress-demo does not exist',
    );
  });
});
