// The client against a stubbed control cluster: scheduling, submitting in waves, conflicts,
// deleting in reverse waves, and what it follows and lets go of through the engine's context.
import { describe, expect, it, vi } from 'vitest';
import { ClassifiedError } from '#core/errors';
import type { ConnectContext, ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { Child } from './children';
import { ApplicationClient, type ControlCluster } from './client';
import type { ApplicationObservation, ResourceTemplate } from './schema';
import { childOf, namespaceTemplate, otherApplication, seedTemplates, serviceTemplate } from '#test/unit/fixtures/workload-application';

type Scope = Omit<ControlObjectKey, 'name'>;
const CLUSTERS = 'KubernetesCluster';
const submitted = { state: 'Submitted' };

function application(options: { cluster?: string; templates?: ResourceTemplate[]; deleting?: boolean } = {}) {
  return {
    apiVersion: 'workload.crossplane.io/v1alpha1',
    kind: 'KubernetesApplication',
    metadata: {
      name: 'wordpress-demo',
      namespace: 'complex',
      uid: 'app-uid',
      generation: 1,
      resourceVersion: '1',
      annotations: options.cluster ? { 'crossplane.io/external-name': options.cluster } : {},
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { clusterSelector: { matchLabels: { app: 'wordpress-demo' } }, resourceTemplates: options.templates ?? seedTemplates },
  } as unknown as ManagedResource<unknown, ApplicationObservation>;
}

const cluster = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'compute.crossplane.io/v1alpha1',
  kind: 'KubernetesCluster',
  metadata: { name, namespace: 'complex', labels },
});

/** A control cluster whose API server holds `children` and `clusters`; the watch shows `watched` when given (a lagging one). */
function setUp(state: { children?: Child[]; watched?: Child[]; clusters?: object[]; noWatches?: boolean } = {}) {
  const children = [...(state.children ?? [])];
  const listOf = (scope: Scope, watch: boolean) =>
    (scope.kind === CLUSTERS ? (state.clusters ?? []) : watch && state.watched ? state.watched : children) as Record<string, unknown>[];
  const api = {
    list: vi.fn(async (scope: Scope) => listOf(scope, false)),
    create: vi.fn(async (_: Child) => {}),
    replace: vi.fn(async (_: Child) => {}),
    delete: vi.fn(async (_: Child) => true),
  } satisfies ControlCluster;
  const followed: { scope: Scope; wakesFor?: (obj: Record<string, unknown>) => boolean }[] = [];
  const context: ConnectContext = {
    getClusterObject: async () => undefined,
    getSecretValue: async () => undefined,
    forgetControlObjects: vi.fn(),
    ...(state.noWatches
      ? {}
      : {
          listControlObjects: async (scope: Scope, _dependent: ManagedResource, wakesFor?: (obj: Record<string, unknown>) => boolean) => {
            followed.push({ scope, wakesFor });
            return listOf(scope, true);
          },
        }),
  };
  return { client: new ApplicationClient(context, api), api, context, followed };
}

const names = (calls: [Child][]) => calls.map(([c]) => c.metadata.name);

describe('scheduling', () => {
  it('is not scheduled until create chooses a cluster', async () => {
    const { client, followed } = setUp();
    expect(await client.observe(application())).toEqual({
      resourceExists: false,
      resourceUpToDate: false,
      atProvider: { desiredResources: 3, submittedResources: 0 },
    });
    expect(followed).toEqual([]);
  });

  it('chooses the first matching cluster by name, and follows the namespace’s clusters for a later one', async () => {
    const clusters = [cluster('z', { app: 'wordpress-demo' }), cluster('a', { app: 'other' }), cluster('m', { app: 'wordpress-demo' })];
    const { client, followed } = setUp({ clusters });
    const created = await client.create(application());
    expect(created).toEqual({ externalName: 'm', summary: 'scheduled to KubernetesCluster complex/m' });
    expect(followed[0]!.scope).toEqual({ apiVersion: 'compute.crossplane.io/v1alpha1', kind: CLUSTERS, namespace: 'complex' });
    expect(followed[0]!.wakesFor!(cluster('new', { app: 'wordpress-demo' }))).toBe(true);
    expect(followed[0]!.wakesFor!(cluster('new', { app: 'other' }))).toBe(false);
  });

  it('stays unscheduled with a message naming the namespace and the selector when nothing matches', async () => {
    const { client } = setUp({ clusters: [cluster('a', { app: 'other' })] });
    const failure = await client.create(application()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ClassifiedError);
    expect(failure).toMatchObject({ failureClass: 'MissingConfiguration' });
    expect((failure as Error).message).toBe(
      'no KubernetesCluster in namespace complex matches clusterSelector app=wordpress-demo; the application is scheduled as soon as one is registered',
    );
  });

  it('asks the API server where nothing can be followed', async () => {
    const { client, api } = setUp({ clusters: [cluster('a', { app: 'wordpress-demo' })], noWatches: true });
    expect((await client.create(application())).externalName).toBe('a');
    expect(api.list).toHaveBeenCalledOnce();
  });
});

describe('observe, once scheduled', () => {
  it('has the Namespace to create first, stops following clusters, and follows its resources', async () => {
    const { client, context, followed } = setUp();
    const observed = await client.observe(application({ cluster: 'm' }));
    expect(observed).toMatchObject({
      resourceExists: true,
      resourceUpToDate: false,
      readiness: 'Creating',
      diff: expect.stringMatching(/^create wordpress-demo-namespace; then create wordpress-demo-deployment once/),
      atProvider: {
        clusterRef: { apiVersion: 'compute.crossplane.io/v1alpha1', kind: CLUSTERS, namespace: 'complex', name: 'm' },
        desiredResources: 3,
        submittedResources: 0,
      },
    });
    expect(context.forgetControlObjects).toHaveBeenCalledWith('app-uid', {
      apiVersion: 'compute.crossplane.io/v1alpha1',
      kind: CLUSTERS,
      namespace: 'complex',
    });
    const { scope, wakesFor } = followed[0]!;
    expect(scope).toEqual({ apiVersion: 'workload.crossplane.io/v1alpha1', kind: 'KubernetesApplicationResource', namespace: 'complex' });
    const asObject = (c: Child) => c as unknown as Record<string, unknown>;
    expect(wakesFor!(asObject(childOf(serviceTemplate)))).toBe(true);
    expect(wakesFor!(asObject(childOf(serviceTemplate, { controller: otherApplication })))).toBe(true); // a conflict that may go away
    const unrelated = childOf({ ...serviceTemplate, metadata: { name: 'unrelated' } }, { controller: otherApplication });
    expect(wakesFor!(asObject(unrelated))).toBe(false);
  });

  it('checks with the API server before it reports work the watch may just not show done yet', async () => {
    const { client, api } = setUp({ watched: [], children: [childOf(namespaceTemplate, { state: 'Scheduled' })] });
    expect(await client.observe(application({ cluster: 'm' }))).toMatchObject({ resourceUpToDate: true, readiness: 'Creating' });
    expect(api.list).toHaveBeenCalledOnce();
  });

  it('is Available with every resource Submitted, without asking the API server', async () => {
    const { client, api } = setUp({ children: seedTemplates.map((t) => childOf(t, submitted)) });
    expect(await client.observe(application({ cluster: 'm' }))).toMatchObject({
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { desiredResources: 3, submittedResources: 3 },
    });
    expect(api.list).not.toHaveBeenCalled();
  });

  it('is Unavailable, naming them, while resources have failed', async () => {
    const children = [childOf(namespaceTemplate, submitted), ...seedTemplates.slice(1).map((t) => childOf(t, { state: 'Failed' }))];
    expect(await setUp({ children }).client.observe(application({ cluster: 'm' }))).toMatchObject({
      readiness: 'Unavailable',
      readinessMessage:
        'KubernetesApplicationResources failed: wordpress-demo-deployment, wordpress-demo-service (see their Synced condition)',
      atProvider: { submittedResources: 1 },
    });
  });
});

describe('update', () => {
  it('submits from what the API server holds, wave by wave', async () => {
    const { client, api } = setUp({ watched: [childOf(namespaceTemplate, submitted)] });
    expect(await client.update(application({ cluster: 'm' }))).toMatch(/^KubernetesApplicationResources: create wordpress-demo-namespace;/);
    expect(names(api.create.mock.calls)).toEqual(['wordpress-demo-namespace']);

    const next = setUp({ children: [childOf(namespaceTemplate, submitted)] });
    await next.client.update(application({ cluster: 'm' }));
    expect(names(next.api.create.mock.calls)).toEqual(['wordpress-demo-deployment', 'wordpress-demo-service']);
  });

  it('does the rest, then refuses a name another application controls, saying whose it is', async () => {
    const children = [childOf(namespaceTemplate, submitted), childOf(serviceTemplate, { controller: otherApplication })];
    const { client, api } = setUp({ children });
    const failure = await client.update(application({ cluster: 'm' })).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      failureClass: 'InvalidInput',
      message: expect.stringMatching(/wordpress-demo-service.*first-owner.*rename/),
    });
    expect(names(api.create.mock.calls)).toEqual(['wordpress-demo-deployment']);
    expect(api.replace).not.toHaveBeenCalled();
    expect(api.delete).not.toHaveBeenCalled();
  });

  it('runs every write, then fails with the first failure', async () => {
    const { client, api } = setUp({ children: [childOf(namespaceTemplate, submitted)] });
    api.create.mockRejectedValueOnce(new ClassifiedError('Transient', 'control cluster: cannot create: already exists'));
    await expect(client.update(application({ cluster: 'm' }))).rejects.toThrow(/already exists/);
    expect(api.create).toHaveBeenCalledTimes(2);
  });

  it('deletes the resource of a removed template', async () => {
    const { client, api } = setUp({ children: seedTemplates.map((t) => childOf(t, submitted)) });
    await client.update(application({ cluster: 'm', templates: [namespaceTemplate, serviceTemplate] }));
    expect(names(api.delete.mock.calls)).toEqual(['wordpress-demo-deployment']);
  });
});

describe('deletion', () => {
  it('deletes the other kinds first, then the Namespace, then lets go of what it followed', async () => {
    const all = setUp({ children: seedTemplates.map((t) => childOf(t, submitted)) });
    expect(await all.client.delete(application({ cluster: 'm', deleting: true }))).toEqual({
      summary: 'deleted wordpress-demo-deployment, wordpress-demo-service; then wordpress-demo-namespace',
    });
    expect(names(all.api.delete.mock.calls)).toEqual(['wordpress-demo-deployment', 'wordpress-demo-service']);

    const deleting = setUp({ children: [childOf(namespaceTemplate), childOf(serviceTemplate, { deleting: true })] });
    expect(await deleting.client.delete(application({ deleting: true }))).toEqual({
      summary: 'waiting for wordpress-demo-service to be deleted; then wordpress-demo-namespace',
    });
    expect(deleting.api.delete).not.toHaveBeenCalled();

    const none = setUp({ children: [childOf(serviceTemplate, { controller: otherApplication })] });
    expect(await none.client.delete(application({ deleting: true }))).toEqual({
      summary: 'no KubernetesApplicationResources left',
      gone: true,
    });
    expect(none.context.forgetControlObjects).toHaveBeenCalledWith('app-uid');
    expect(none.api.delete).not.toHaveBeenCalled();
  });

  it('exists while any of its resources does, even one the watch no longer shows', async () => {
    const remaining = setUp({ children: [childOf(namespaceTemplate)], watched: [] });
    expect(await remaining.client.observe(application({ cluster: 'm', deleting: true }))).toEqual({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Deleting',
      readinessMessage: 'waiting for wordpress-demo-namespace',
    });
    expect(remaining.context.forgetControlObjects).not.toHaveBeenCalled();

    const gone = setUp();
    expect(await gone.client.observe(application({ cluster: 'm', deleting: true }))).toEqual({
      resourceExists: false,
      resourceUpToDate: true,
    });
    expect(gone.context.forgetControlObjects).toHaveBeenCalledWith('app-uid');
  });
});
