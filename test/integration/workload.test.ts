// Seed 003's complex workloads through the whole engine, against real servers: two remote
// kube-apiservers registered as KubernetesClusters with different labels, the seed's
// wordpress-demo application applied verbatim from examples/workload/, scheduled by label,
// submitted in order (the Namespace before what lives in it), its Secret propagated and
// followed, remote status copied back, its templates edited, and everything removed with it;
// then scheduling that waits for a cluster, conflicts refused, immutable fields, and a
// scheduled cluster that goes away and comes back.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubernetesApplicationApi } from '#providers/kubernetes/workload/application/schema';
import { kubernetesApplicationResourceApi } from '#providers/kubernetes/workload/resource/schema';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { ControlPlane, condition, eventually, remoteKubectl, textOf, type VpcObject } from './harness';
import { registerKubernetesClusters } from './kubernetes-clusters';
import { runKubectl } from './kubectl';
import { widgetCrd } from './widget-crd';

/** The seed's namespace: examples/workload/ is applied as written, so this file works in it. */
const NS = 'complex';
const APPS = 'kubernetesapplications.workload.crossplane.io';
const RESOURCES = 'kubernetesapplicationresources.workload.crossplane.io';
const CLUSTERS = 'kubernetesclusters.compute.crossplane.io';
const UID_ANNOTATION = 'kubernetesapplicationresource.workload.crossplane.io/uid';
const examplesDir = join(import.meta.dirname, '..', '..', 'examples', 'workload');

let plane: ControlPlane;
beforeAll(async () => {
  await runKubectl(['create', 'namespace', NS]).catch((error: unknown) => {
    if (!String(error).includes('AlreadyExists')) throw error;
  });
  // Ten-minute polls: whatever happens promptly here was woken by a watch, not found by a poll.
  plane = await ControlPlane.start('workload', { CHRONOPLANE_WATCH_NAMESPACE: NS, CHRONOPLANE_POLL_STEADY_SECONDS: '600' });
  // What `npm run up` registers too, so that examples/workload/ applies as written.
  await registerCluster('wordpress-demo-cluster', 'remote-1', { app: 'wordpress-demo' });
  await registerCluster('other-cluster', 'remote-2', { app: 'other' });
});
afterAll(async () => {
  await plane?.stop();
});

/** A control or remote object as kubectl prints it; `condition` reads its conditions. */
type Obj = VpcObject & { metadata: { ownerReferences?: Record<string, unknown>[] }; status?: any; data?: Record<string, string> };

/** JSON with sorted keys: the API server stores a custom resource's fields sorted, a Deployment's in field order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const apply = (manifest: object) => runKubectl(['apply', '-f', '-'], JSON.stringify(manifest));

/** As a user registers a cluster: its kubeconfig in a Secret, and a KubernetesCluster naming it. */
const registerCluster = (name: string, remote: string, labels: Record<string, string>) =>
  registerKubernetesClusters(NS, [{ name, remote, labels }]);

async function get(resource: string, name: string, namespace = NS): Promise<Obj | undefined> {
  try {
    return JSON.parse(await runKubectl(['get', resource, '-n', namespace, name, '-o', 'json'])) as Obj;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

async function remoteGet(remote: string, kind: string, name: string, namespace?: string): Promise<Obj | undefined> {
  try {
    return JSON.parse(await remoteKubectl(remote, ['get', kind, ...(namespace ? ['-n', namespace] : []), name, '-o', 'json'])) as Obj;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

async function appState(name: string, state: string, timeoutMs?: number): Promise<Obj> {
  try {
    return await eventually(
      async () => {
        const app = await get(APPS, name);
        return app?.status?.state === state && app;
      },
      `KubernetesApplication ${name} to be ${state}`,
      timeoutMs,
    );
  } catch (error) {
    // Where it is stuck: the application's and each of its resources' state and conditions.
    const resources = (JSON.parse(await runKubectl(['get', RESOURCES, '-n', NS, '-o', 'json'])).items as Obj[]).filter((r) =>
      r.metadata.ownerReferences?.some((owner) => owner.name === name),
    );
    const describe = (o: Obj | undefined) => `${o?.metadata.name}: ${o?.status?.state} ${JSON.stringify(o?.status?.conditions ?? null)}`;
    throw new Error(`${(error as Error).message}; ${[await get(APPS, name), ...resources].map(describe).join('; ')}`);
  }
}

const setTemplates = (app: string, resourceTemplates: object[]) =>
  runKubectl(['patch', APPS, '-n', NS, app, '--type=merge', '-p', JSON.stringify({ spec: { resourceTemplates } })]);

/** The messages of Warning events about the objects whose names start with `prefix`. */
async function warningsAbout(prefix: string): Promise<string[]> {
  const events = JSON.parse(await runKubectl(['get', 'events', '-n', NS, '--field-selector', 'type=Warning', '-o', 'json'])).items as {
    involvedObject: { name: string };
    message: string;
  }[];
  return events.filter((e) => e.involvedObject.name.startsWith(prefix)).map((e) => e.message);
}

const gone = (resource: string, name: string) =>
  eventually(async () => (await get(resource, name)) === undefined, `${resource} ${name} to be gone`);

const application = (name: string, clusterSelector: Record<string, unknown>, resourceTemplates: object[]) => ({
  apiVersion: 'workload.crossplane.io/v1alpha1',
  kind: 'KubernetesApplication',
  metadata: { name, namespace: NS, labels: { app: name } },
  spec: { clusterSelector, resourceTemplates },
});

const configMapTemplate = (name: string, data: Record<string, string>, namespace = 'default') => ({
  metadata: { name, labels: { app: 'tests' } },
  spec: { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data } },
});

describe('the seed’s wordpress-demo application', () => {
  it('is scheduled by label, submitted in order with its Secret, mirrors remote status, follows edits, and is removed with nothing left behind', async () => {
    const files = (await readdir(examplesDir)).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    await runKubectl(['apply', '-f', examplesDir]);

    const app = await appState('wordpress-demo', 'Submitted', 120_000);
    expect(app.status.clusterRef).toMatchObject({ kind: 'KubernetesCluster', name: 'wordpress-demo-cluster', namespace: NS });
    expect(app.status).toMatchObject({ desiredResources: 3, submittedResources: 3 });

    // One resource per template, controlled by the application, in its namespace.
    const resources = JSON.parse(await runKubectl(['get', RESOURCES, '-n', NS, '-l', 'app=wordpress-demo', '-o', 'json'])).items as Obj[];
    expect(resources.map((r) => r.metadata.name).sort()).toEqual([
      'wordpress-demo-deployment',
      'wordpress-demo-namespace',
      'wordpress-demo-service',
    ]);
    for (const resource of resources) {
      expect(resource.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'KubernetesApplication', name: 'wordpress-demo', uid: app.metadata.uid, controller: true }),
      ]);
      expect(resource.status.state).toBe('Submitted');
      expect(resource.status.clusterRef.name).toBe('wordpress-demo-cluster');
    }

    // Each application and each resource is a workflow of its own, found in the Temporal UI by
    // the same search attributes as any managed resource.
    const appWorkflow = workflowIdFor(refFor(kubernetesApplicationApi, NS, 'wordpress-demo'));
    await eventually(
      async () =>
        (await plane.workflowIds(`ResourceKind = "KubernetesApplication" AND ResourceNamespace = "${NS}" AND Ready = "True"`)).includes(
          appWorkflow,
        ),
      'the application to be listed by its search attributes',
    );
    const resourceWorkflows = resources.map((r) => workflowIdFor(refFor(kubernetesApplicationResourceApi, NS, r.metadata.name))).sort();
    await eventually(async () => {
      const found = await plane.workflowIds(
        `ResourceKind = "KubernetesApplicationResource" AND ResourceNamespace = "${NS}" AND Ready = "True"`,
      );
      return resourceWorkflows.every((id) => found.includes(id));
    }, 'the resources to be listed by their search attributes');
    // The application's workflow learns of its resources' progress by wake-up signals.
    const wakeUps = ((await plane.decodedHistory(appWorkflow)).events ?? [])
      .map((e) => e.workflowExecutionSignaledEventAttributes)
      .filter((signal) => signal?.signalName === 'resourceEvent')
      .map((signal) => JSON.parse(Buffer.from(signal!.input!.payloads![0]!.data!).toString()) as { wake?: boolean })
      .filter((event) => event.wake === true);
    expect(wakeUps.length).toBeGreaterThan(0);

    // The listings read as the seed shows them.
    const appListing = await runKubectl(['get', 'kubernetesapplication', '-n', NS, 'wordpress-demo']);
    expect(appListing.split('\n')[0]!.split(/\s+/)).toEqual(['NAME', 'CLUSTER', 'STATUS', 'DESIRED', 'SUBMITTED']);
    expect(appListing.split('\n')[1]!.split(/\s+/)).toEqual(['wordpress-demo', 'wordpress-demo-cluster', 'Submitted', '3', '3']);
    const resourceListing = await runKubectl(['get', 'kubernetesapplicationresource', '-n', NS, '--selector', 'app=wordpress-demo']);
    const rows = resourceListing
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'TEMPLATE-KIND', 'TEMPLATE-NAME', 'CLUSTER', 'STATUS']);
    expect(rows.slice(1)).toEqual([
      ['wordpress-demo-deployment', 'Deployment', 'wordpress', 'wordpress-demo-cluster', 'Submitted'],
      ['wordpress-demo-namespace', 'Namespace', 'wordpress', 'wordpress-demo-cluster', 'Submitted'],
      ['wordpress-demo-service', 'Service', 'wordpress', 'wordpress-demo-cluster', 'Submitted'],
    ]);

    // In the scheduled cluster, annotated with their resource's uid; nothing in the other one.
    const uidOf = (name: string) => resources.find((r) => r.metadata.name === name)!.metadata.uid;
    const deployment = await remoteGet('remote-1', 'deployment', 'wordpress', 'wordpress');
    expect(deployment?.metadata.annotations?.[UID_ANNOTATION]).toBe(uidOf('wordpress-demo-deployment'));
    expect((await remoteGet('remote-1', 'namespace', 'wordpress'))?.metadata.annotations?.[UID_ANNOTATION]).toBe(
      uidOf('wordpress-demo-namespace'),
    );
    expect((await remoteGet('remote-1', 'service', 'wordpress', 'wordpress'))?.metadata.annotations?.[UID_ANNOTATION]).toBe(
      uidOf('wordpress-demo-service'),
    );
    expect(await remoteGet('remote-2', 'namespace', 'wordpress')).toBeUndefined();

    // The namespace came first: no create of the Deployment or the Service ever failed.
    expect(await warningsAbout('wordpress-demo')).toEqual([]);

    // The connection Secret, propagated as <resource>-<secret> into the template's namespace, and kept in step.
    const propagated = await remoteGet('remote-1', 'secret', 'wordpress-demo-deployment-sql', 'wordpress');
    const source = (await get('secret', 'sql'))!;
    expect(propagated?.data).toEqual(source.data);
    // Its values stay out of status, history, logs and events.
    const password = 'not-a-real-password';
    const deploymentWorkflow = workflowIdFor(refFor(kubernetesApplicationResourceApi, NS, 'wordpress-demo-deployment'));
    const places = {
      'resource status': JSON.stringify((await get(RESOURCES, 'wordpress-demo-deployment'))?.status),
      'resource history': textOf(await plane.decodedHistory(deploymentWorkflow)),
      logs: plane.logs.join(''),
      events: await runKubectl(['get', 'events', '-n', NS, '-o', 'json']),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.includes(password), `the password in ${where}`).toBe(false);
      expect(text.includes(Buffer.from(password).toString('base64')), `the encoded password in ${where}`).toBe(false);
    }
    await runKubectl(['patch', 'secret', '-n', NS, 'sql', '--type=merge', '-p', JSON.stringify({ stringData: { password: 'rotated' } })]);
    await eventually(
      async () => {
        const now = await remoteGet('remote-1', 'secret', 'wordpress-demo-deployment-sql', 'wordpress');
        return Buffer.from(now?.data?.password ?? '', 'base64').toString() === 'rotated';
      },
      'the rotated password in the propagated Secret',
      20_000,
    );

    // The remote Deployment's status, copied to status.remote as its cluster's controllers write it.
    let mirrored: { remote?: unknown; live?: unknown } = {};
    await eventually(
      async () => {
        const [resource, live] = await Promise.all([
          get(RESOURCES, 'wordpress-demo-deployment'),
          remoteGet('remote-1', 'deployment', 'wordpress', 'wordpress'),
        ]);
        mirrored = { remote: resource?.status?.remote, live: live?.status };
        return live?.status?.observedGeneration !== undefined && canonical(resource?.status?.remote) === canonical(live.status);
      },
      'status.remote to mirror the Deployment’s status',
      30_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; status.remote ${canonical(mirrored.remote)}, live ${canonical(mirrored.live)}`);
    });

    // Edits: a template added, one changed, then the added one removed.
    const demo = JSON.parse(await runKubectl(['get', APPS, '-n', NS, 'wordpress-demo', '-o', 'json'])) as Obj;
    const templates = demo.spec.resourceTemplates as any[];
    const service = templates.find((t) => t.spec.template.kind === 'Service');
    service.spec.template.spec.ports[0].port = 8080;
    const extra = configMapTemplate('wordpress-demo-config', { theme: 'dark' }, 'wordpress');
    extra.metadata.labels = { app: 'wordpress-demo' };
    await setTemplates('wordpress-demo', [...templates, extra]);
    await eventually(
      async () => (await remoteGet('remote-1', 'configmap', 'wordpress-demo-config', 'wordpress'))?.data?.theme === 'dark',
      'the added ConfigMap',
    );
    await eventually(
      async () => (await remoteGet('remote-1', 'service', 'wordpress', 'wordpress'))?.spec?.ports?.[0]?.port === 8080,
      'the Service’s new port',
    );
    await appState('wordpress-demo', 'Submitted');
    expect((await get(APPS, 'wordpress-demo'))?.status).toMatchObject({ desiredResources: 4, submittedResources: 4 });
    await setTemplates('wordpress-demo', templates);
    await gone(RESOURCES, 'wordpress-demo-config');
    expect(await remoteGet('remote-1', 'configmap', 'wordpress-demo-config', 'wordpress')).toBeUndefined();

    // Deleting the application removes everything it made, in the cluster too.
    await runKubectl(['delete', APPS, '-n', NS, 'wordpress-demo', '--wait=false']);
    await gone(APPS, 'wordpress-demo');
    expect(JSON.parse(await runKubectl(['get', RESOURCES, '-n', NS, '-l', 'app=wordpress-demo', '-o', 'json'])).items).toEqual([]);
    expect(await remoteGet('remote-1', 'deployment', 'wordpress', 'wordpress')).toBeUndefined();
    expect(await remoteGet('remote-1', 'secret', 'wordpress-demo-deployment-sql', 'wordpress')).toBeUndefined();
    // A Namespace is gone once the remote namespace controller has emptied it; the resource waited for that.
    expect(await remoteGet('remote-1', 'namespace', 'wordpress')).toBeUndefined();
  });
});

describe('ordering', () => {
  it('submits a custom resource only once its CustomResourceDefinition is served, so nothing fails on the way', async () => {
    const name = 'crd-and-widget';
    const group = 'ordering.chronoplane.test';
    const crd = widgetCrd(group);
    const widget = {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'first', namespace: 'default' },
      spec: { size: 3 },
    };
    // The custom resource's template comes first in the list: the order is the waves', not the list's.
    await apply(
      application(name, { matchLabels: { app: 'other' } }, [
        { metadata: { name: `${name}-widget` }, spec: { template: widget } },
        { metadata: { name: `${name}-crd` }, spec: { template: crd } },
      ]),
    );
    await appState(name, 'Submitted', 120_000);
    expect((await remoteGet('remote-2', `widgets.${group}`, 'first', 'default'))?.spec).toEqual({ size: 3 });
    expect(await warningsAbout(name)).toEqual([]);

    await runKubectl(['delete', APPS, '-n', NS, name, '--wait=false']);
    await gone(APPS, name);
    expect(await remoteGet('remote-2', 'customresourcedefinition', `widgets.${group}`)).toBeUndefined();
  });
});

describe('scheduling', () => {
  it('stays Pending with a message while no cluster matches, then proceeds as soon as one is registered', async () => {
    const name = 'waits-for-a-cluster';
    await apply(application(name, { matchLabels: { pool: 'late' } }, [configMapTemplate(`${name}-config`, { k: 'v' })]));
    const pending = await appState(name, 'Pending');
    expect(condition(pending, 'Synced')?.message).toMatch(/no KubernetesCluster in namespace complex matches/);
    expect(await get(RESOURCES, `${name}-config`)).toBeUndefined();

    // Pending long enough for the backoff between its passes (5, 10, then 20 s) to outlast what
    // follows, so only the KubernetesCluster's watch can schedule it this soon.
    await plane.failedPasses(workflowIdFor(refFor(kubernetesApplicationApi, NS, name)), 3, 60_000);
    const registeredAt = Date.now();
    await registerCluster('late-cluster', 'remote-2', { pool: 'late' });
    await eventually(async () => (await get(APPS, name))?.status?.clusterRef?.name, 'the application to be scheduled', 15_000);
    expect(Date.now() - registeredAt, 'scheduled before the next pass the backoff would run').toBeLessThan(18_000);
    const submitted = await appState(name, 'Submitted', 20_000);
    expect(submitted.status.clusterRef.name).toBe('late-cluster');
    expect((await remoteGet('remote-2', 'configmap', `${name}-config`, 'default'))?.data).toEqual({ k: 'v' });

    // The selector is immutable: moving an application means deleting and recreating it.
    await expect(
      runKubectl([
        'patch',
        APPS,
        '-n',
        NS,
        name,
        '--type=merge',
        '-p',
        JSON.stringify({ spec: { clusterSelector: { matchLabels: { app: 'other' } } } }),
      ]),
    ).rejects.toThrow(/delete and recreate/);

    await runKubectl(['delete', APPS, '-n', NS, name, '--wait=false']);
    await gone(APPS, name);
    expect(await remoteGet('remote-2', 'configmap', `${name}-config`, 'default')).toBeUndefined();
  });

  it('a scheduled cluster that goes away fails its resources with the reason and recovers when it is back, never rescheduled to another match', async () => {
    const name = 'loses-its-cluster';
    await registerCluster('flaky-cluster', 'remote-2', { pool: 'flaky' });
    await apply(application(name, { matchLabels: { pool: 'flaky' } }, [configMapTemplate(`${name}-config`, { k: 'v' })]));
    await appState(name, 'Submitted');

    await runKubectl(['delete', CLUSTERS, '-n', NS, 'flaky-cluster']);
    // Another cluster that matches just as well is there during the outage: it is not taken.
    await registerCluster('flaky-spare', 'remote-1', { pool: 'flaky' });
    // An edit while the cluster is gone: it is applied once the cluster is back.
    await setTemplates(name, [configMapTemplate(`${name}-config`, { k: 'w' })]);
    const failed = await eventually(async () => {
      const resource = await get(RESOURCES, `${name}-config`);
      return resource?.status?.state === 'Failed' && resource;
    }, 'the resource to fail');
    expect(condition(failed, 'Synced')?.message).toMatch(/flaky-cluster/);
    expect((await get(APPS, name))?.status?.clusterRef?.name).toBe('flaky-cluster');
    expect(await remoteGet('remote-1', 'configmap', `${name}-config`, 'default')).toBeUndefined();
    await runKubectl(['delete', CLUSTERS, '-n', NS, 'flaky-spare']);

    await registerCluster('flaky-cluster', 'remote-2', { pool: 'flaky' });
    await appState(name, 'Submitted', 60_000);
    expect((await remoteGet('remote-2', 'configmap', `${name}-config`, 'default'))?.data).toEqual({ k: 'w' });
    await runKubectl(['delete', APPS, '-n', NS, name, '--wait=false']);
    await gone(APPS, name);
  });
});

describe('conflicts are refused, never raced', () => {
  it('a second application templating a resource name another one controls gets a clear condition, and neither adopts an orphan', async () => {
    await apply(application('first-owner', { matchLabels: { app: 'other' } }, [configMapTemplate('shared-name', { owner: 'first' })]));
    await appState('first-owner', 'Submitted');
    await apply(application('second-owner', { matchLabels: { app: 'other' } }, [configMapTemplate('shared-name', { owner: 'second' })]));
    const refused = await eventually(async () => {
      const app = await get(APPS, 'second-owner');
      return condition(app, 'Synced')?.status === 'False' && app;
    }, 'the second application to be refused');
    expect(condition(refused, 'Synced')?.message).toMatch(/shared-name.*first-owner/);
    expect((await remoteGet('remote-2', 'configmap', 'shared-name', 'default'))?.data).toEqual({ owner: 'first' });

    // A resource nobody controls is never adopted either.
    await apply({
      apiVersion: 'workload.crossplane.io/v1alpha1',
      kind: 'KubernetesApplicationResource',
      metadata: { name: 'orphan-resource', namespace: NS },
      spec: { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orphan', namespace: 'default' }, data: { a: 'b' } } },
    });
    await apply(application('would-adopt', { matchLabels: { app: 'other' } }, [configMapTemplate('orphan-resource', { a: 'c' })]));
    const notAdopting = await eventually(async () => {
      const app = await get(APPS, 'would-adopt');
      return condition(app, 'Synced')?.status === 'False' && app;
    }, 'the application to refuse the orphan');
    expect(condition(notAdopting, 'Synced')?.message).toMatch(/orphan-resource/);
    expect((await get(RESOURCES, 'orphan-resource'))?.metadata.ownerReferences).toBeUndefined();

    for (const app of ['first-owner', 'second-owner', 'would-adopt']) await runKubectl(['delete', APPS, '-n', NS, app, '--wait=false']);
    await runKubectl(['delete', RESOURCES, '-n', NS, 'orphan-resource', '--wait=false']);
    await Promise.all([
      gone(APPS, 'first-owner'),
      gone(APPS, 'second-owner'),
      gone(APPS, 'would-adopt'),
      gone(RESOURCES, 'orphan-resource'),
    ]);
    // The first owner's object went with it; the refused ones never touched it.
    expect(await remoteGet('remote-2', 'configmap', 'shared-name', 'default')).toBeUndefined();
  });

  it('a second resource templating the same remote object refuses to touch it and says whose it is', async () => {
    await apply(
      application('two-writers', { matchLabels: { app: 'other' } }, [
        configMapTemplate('writer-a', { by: 'a' }),
        { ...configMapTemplate('writer-b', { by: 'b' }), spec: configMapTemplate('writer-a', { by: 'b' }).spec },
      ]),
    );
    // Both race for the new ConfigMap writer-a: whichever came first has it, the other refuses.
    const [winner, loser] = await eventually(async () => {
      const [a, b] = await Promise.all([get(RESOURCES, 'writer-a'), get(RESOURCES, 'writer-b')]);
      if (a?.status?.state === 'Submitted' && b?.status?.state === 'Failed') return [a, b] as const;
      return b?.status?.state === 'Submitted' && a?.status?.state === 'Failed' && ([b, a] as const);
    }, 'one writer to have the object and the other to refuse');
    expect(condition(loser, 'Synced')?.message).toContain(winner.metadata.uid);
    const live = await remoteGet('remote-2', 'configmap', 'writer-a', 'default');
    expect(live?.metadata.annotations?.[UID_ANNOTATION]).toBe(winner.metadata.uid);
    expect(live?.data).toEqual({ by: winner.metadata.name === 'writer-a' ? 'a' : 'b' });
    expect((await get(APPS, 'two-writers'))?.status).toMatchObject({
      state: 'PartiallySubmitted',
      desiredResources: 2,
      submittedResources: 1,
    });

    await runKubectl(['delete', APPS, '-n', NS, 'two-writers', '--wait=false']);
    await gone(APPS, 'two-writers');
    expect(await remoteGet('remote-2', 'configmap', 'writer-a', 'default')).toBeUndefined();
  });

  it('rejects a change of a resource’s template identity at admission, saying to delete and recreate', async () => {
    await apply({
      apiVersion: 'workload.crossplane.io/v1alpha1',
      kind: 'KubernetesApplicationResource',
      metadata: { name: 'fixed-identity', namespace: NS },
      spec: { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fixed', namespace: 'default' } } },
    });
    for (const change of [
      { kind: 'Secret' },
      { apiVersion: 'v2' },
      { metadata: { name: 'other' } },
      { metadata: { namespace: 'kube-system' } },
    ]) {
      await expect(
        runKubectl(['patch', RESOURCES, '-n', NS, 'fixed-identity', '--type=merge', '-p', JSON.stringify({ spec: { template: change } })]),
      ).rejects.toThrow(/delete and recreate/);
    }
    await runKubectl(['delete', RESOURCES, '-n', NS, 'fixed-identity', '--wait=false']);
    await gone(RESOURCES, 'fixed-identity');
  });
});
