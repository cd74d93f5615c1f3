// What an Object does with its target beyond create and delete, against real servers: readiness
// policies decided by the target's state as its watch reports it, Secret data kept out of
// status and history, connection details published from target objects, a target cluster that
// cannot be reached (or goes down under a Ready Object) or a kubeconfig that cannot be read,
// and provider-kubernetes v1.2.1's own example manifests, applied verbatim from its module.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { objectApi } from '#providers/kubernetes/object/schema';
import { refFor, workflowIdFor } from '#core/managed-kind';
import { ensureProviderKubernetes } from '#bench/peers/provider-kubernetes';
import { stopKubeCluster } from '#stack/kube';
import { freePort } from '#stack/ports';
import { stopProcess } from '#stack/processes';
import { startRemoteCluster } from '#stack/remote-clusters';
import { ControlPlane, condition, eventually, remoteKubectl, textOf } from './harness';
import { runKubectl } from './kubectl';
import { widgetCrd } from './widget-crd';
import {
  REMOTE,
  apply,
  atProviderOf,
  conditionBecomes,
  configMap,
  deleteObjects,
  getObject,
  gone,
  namer,
  object,
  ready,
  remoteConfigMap,
  remoteObject,
} from './objects';

let plane: ControlPlane;
let examplesDir: string;
beforeAll(async () => {
  // Ten-minute polls: a prompt reaction to a change in the target can only come from its watch.
  [plane, { examplesDir }] = await Promise.all([
    ControlPlane.start('object-client', { CHRONOPLANE_POLL_STEADY_SECONDS: '600' }),
    ensureProviderKubernetes(),
  ]);
});
afterAll(async () => {
  await plane?.stop();
});

const named = namer();
const decoded = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');
const historyOf = async (name: string) => textOf(await plane.decodedHistory(workflowIdFor(refFor(objectApi, '', name))));

describe('readiness.policy', () => {
  it('AllTrue and DeriveFromObject over a Deployment, whose status the target’s controllers write', async () => {
    const [allTrue, derived] = [named('deploy-all-true'), named('deploy-derived')];
    // No node runs its pods; with no replicas the deployment controller still reports it
    // Available and Progressing, as it would anywhere.
    const deployment = (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { namespace: 'default' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      },
    });
    await apply(object(allTrue, deployment(allTrue), { readiness: { policy: 'AllTrue' } }));
    await apply(object(derived, deployment(derived), { readiness: { policy: 'DeriveFromObject' } }));

    const found = await ready(allTrue, 60_000);
    const mirrored = atProviderOf(found) as { status?: { conditions?: { type: string; status: string }[] } } | undefined;
    expect(mirrored?.status?.conditions?.map((c) => `${c.type}=${c.status}`).sort()).toEqual(['Available=True', 'Progressing=True']);
    // A Deployment has no Ready condition of its own, so DeriveFromObject never finds it Ready, and says so.
    const waiting = await conditionBecomes(derived, 'Ready', 'False');
    expect(waiting.message).toBe("the object's Ready condition is not set");
    expect(condition(await getObject(derived), 'Synced')?.status).toBe('True');

    await deleteObjects(allTrue, derived);
    await Promise.all([gone(allTrue), gone(derived)]);
    expect(await remoteObject('deployment', allTrue)).toBeUndefined();
  });

  it('DeriveFromCelQuery turns Ready when the target comes to satisfy the query, seen through its watch', async () => {
    const name = named('cel');
    const celQuery = "has(object.data.state) && object.data.state == 'ready'";
    await apply(object(name, configMap({ owner: 'chronoplane' }), { readiness: { policy: 'DeriveFromCelQuery', celQuery } }));
    const waiting = await conditionBecomes(name, 'Ready', 'False');
    expect(waiting.message).toBe(`readiness.celQuery is false: ${celQuery}`);
    expect(condition(await getObject(name), 'Synced')?.status).toBe('True');

    // Another controller fills in the state; the Object neither waits for its poll nor takes the field away.
    await remoteKubectl(REMOTE, ['patch', 'configmap', '-n', 'default', name, '--type=merge', '-p', '{"data":{"state":"ready"}}']);
    await ready(name, 20_000);
    expect((await remoteConfigMap(name))?.data).toEqual({ owner: 'chronoplane', state: 'ready' });

    await deleteObjects(name);
    await gone(name);
  });

  it('shows a query that cannot be evaluated in the Ready condition, with CEL’s message', async () => {
    const name = named('cel-bad');
    await apply(object(name, configMap({ k: 'v' }), { readiness: { policy: 'DeriveFromCelQuery', celQuery: 'object.data.missing == 1' } }));
    const notReady = await conditionBecomes(name, 'Ready', 'False');
    expect(notReady.message).toMatch(/^readiness.celQuery cannot be evaluated: .*missing/);
    await deleteObjects(name);
    await gone(name);
  });
});

describe('Secrets and connection details', () => {
  it('redacts a target Secret’s data in status, and publishes chosen target fields to writeConnectionSecretToRef', async () => {
    const [db, web] = [named('db'), named('web')];
    const password = randomBytes(12).toString('hex');
    await apply(
      object(db, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'default' }, type: 'Opaque', stringData: { password } }),
    );
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: 'default' },
      spec: { selector: { app: web }, ports: [{ protocol: 'TCP', port: 80, targetPort: 8080 }] },
    };
    await apply(
      object(web, service, {
        connectionDetails: [
          {
            apiVersion: 'v1',
            kind: 'Service',
            name: web,
            namespace: 'default',
            fieldPath: 'spec.clusterIP',
            toConnectionSecretKey: 'host',
          },
          {
            apiVersion: 'v1',
            kind: 'Secret',
            name: db,
            namespace: 'default',
            fieldPath: 'data.password',
            toConnectionSecretKey: 'password',
          },
        ],
        writeConnectionSecretToRef: { name: `${web}-conn`, namespace: 'default' },
      }),
    );
    const [dbObject, webObject] = await Promise.all([ready(db), ready(web)]);
    expect(atProviderOf(dbObject)).toMatchObject({ kind: 'Secret', data: { redacted: null } });
    expect(atProviderOf(webObject)?.spec).toMatchObject({ ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }] });

    const clusterIP = (await remoteObject('service', web))?.spec as { clusterIP?: string } | undefined;
    const published = await eventually(async () => {
      const secret = JSON.parse(await runKubectl(['get', 'secret', '-n', 'default', `${web}-conn`, '-o', 'json']).catch(() => '{}'));
      return secret.data as Record<string, string> | undefined;
    }, 'the connection Secret');
    expect(decoded(published.host)).toBe(clusterIP?.clusterIP);
    expect(decoded(published.password)).toBe(password);

    const places = {
      'Secret Object status': JSON.stringify(dbObject.status),
      'Service Object status': JSON.stringify(webObject.status),
      'Secret Object history': await historyOf(db),
      'Service Object history': await historyOf(web),
      logs: plane.logs.join(''),
      events: await runKubectl(['get', 'events', '-n', 'default', '-o', 'json']),
    };
    for (const [where, text] of Object.entries(places)) {
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.includes(password), `the password in ${where}`).toBe(false);
      expect(text.includes(Buffer.from(password).toString('base64')), `the encoded password in ${where}`).toBe(false);
    }

    await deleteObjects(web, db);
    await Promise.all([gone(web), gone(db)]);
    expect(await remoteObject('secret', db)).toBeUndefined();
  });
});

describe('references to objects Chronoplane does not manage', () => {
  it('waits for a ConfigMap in the control cluster and is woken when it appears, not at its next poll', async () => {
    const [name, source] = [named('from-cm'), named('settings')];
    await apply(
      object(name, configMap({ own: 'x' }), {
        references: [
          {
            patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: source, namespace: 'default', fieldPath: 'data.color' },
            toFieldPath: 'data.color',
          },
        ],
      }),
    );
    const waiting = await conditionBecomes(name, 'ReferencesResolved', 'False');
    expect(waiting.message).toContain(`ConfigMap default/${source}: not found`);

    // The steady poll is ten minutes: only the watch of referenced kinds can make this prompt.
    await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: source, namespace: 'default' }, data: { color: 'blue' } });
    await ready(name, 20_000);
    expect((await remoteConfigMap(name))?.data).toEqual({ own: 'x', color: 'blue' });
    await deleteObjects(name);
    await gone(name);
    await runKubectl(['delete', 'configmap', '-n', 'default', source]);
  });
});

describe('what the target cannot take', () => {
  it('shows a manifest the target rejects with the target’s message', async () => {
    const name = named('rejected');
    await apply(object(name, configMap({ 'not a valid key!': 'v' })));
    const failing = await conditionBecomes(name, 'Synced', 'False');
    expect(failing.message).toContain(`target cluster (ProviderConfig "${REMOTE}"): cannot apply ConfigMap default/${name}`);
    expect(failing.message).toMatch(/a valid config key must consist of alphanumeric characters/);
    await deleteObjects(name);
    await gone(name);
  });

  it('waits for a kind the target does not serve yet, and creates it once its CRD is there', async () => {
    const name = named('widget');
    const group = `${named('widgets')}.example.com`;
    const widget = { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { namespace: 'default' }, spec: { size: 3 } };
    await apply(object(name, widget));
    const failing = await conditionBecomes(name, 'Synced', 'False');
    expect(failing.message).toContain(`target cluster (ProviderConfig "${REMOTE}")`);
    expect(failing.message).toContain(
      `cannot apply Widget default/${name} of ${group}/v1: the target cluster does not serve this kind (yet)`,
    );

    const crd = widgetCrd(group);
    await remoteKubectl(REMOTE, ['apply', '-f', '-'], JSON.stringify(crd));
    // Retried with backoff: 5 s, 10 s, 20 s … so within about a minute of the CRD.
    await ready(name, 120_000);
    const live = await remoteObject(`widgets.${group}`, name);
    expect(live?.spec).toEqual({ size: 3 });
    await deleteObjects(name);
    await gone(name);
    await remoteKubectl(REMOTE, ['delete', 'crd', `widgets.${group}`]);
  });
});

describe('ProviderConfig with InjectedIdentity', () => {
  it('manages objects in the control cluster itself, with the worker’s own credentials', async () => {
    const [name, providerConfig] = [named('local'), named('injected')];
    await apply({
      apiVersion: 'kubernetes.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: providerConfig },
      spec: { credentials: { source: 'InjectedIdentity' } },
    });
    await apply(object(name, configMap({ here: 'yes' }), { providerConfigRef: { name: providerConfig } }));
    await ready(name);
    const local = JSON.parse(await runKubectl(['get', 'configmap', '-n', 'default', name, '-o', 'json']));
    expect(local.data).toEqual({ here: 'yes' });
    expect(await remoteConfigMap(name)).toBeUndefined();
    await deleteObjects(name);
    await gone(name);
    await expect(runKubectl(['get', 'configmap', '-n', 'default', name])).rejects.toThrow(/NotFound/);
    await runKubectl(['delete', 'providerconfigs.kubernetes.crossplane.io', providerConfig]);
  });
});

describe('a target cluster that cannot be reached', () => {
  const kubeconfigSecret = (name: string, kubeconfig: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'crossplane-system' },
    stringData: { kubeconfig },
  });
  const providerConfigFor = (name: string, secret: string) => ({
    apiVersion: 'kubernetes.crossplane.io/v1alpha1',
    kind: 'ProviderConfig',
    metadata: { name },
    spec: { credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: secret, key: 'kubeconfig' } } },
  });
  const remoteKubeconfig = async () => {
    const secret = JSON.parse(await runKubectl(['get', 'secret', '-n', 'crossplane-system', `${REMOTE}-kubeconfig`, '-o', 'json']));
    return decoded(secret.data.kubeconfig);
  };

  it('is Synced=False with the connection error while it is down, and recovers by itself', async () => {
    const [name, providerConfig, secret] = [named('unreachable'), named('down'), named('down-kubeconfig')];
    const kubeconfig = await remoteKubeconfig();
    // The same credentials for a server that does not answer: nothing listens on port 1.
    const down = kubeconfig.replace(/server: \S+/, 'server: https://127.0.0.1:1');
    expect(down).not.toBe(kubeconfig);
    await apply(kubeconfigSecret(secret, down));
    await apply(providerConfigFor(providerConfig, secret));
    await apply(object(name, configMap({ k: 'v' }), { providerConfigRef: { name: providerConfig } }));
    const failing = await conditionBecomes(name, 'Synced', 'False');
    expect(failing.message).toContain(`target cluster (ProviderConfig "${providerConfig}")`);
    expect(failing.message).toMatch(/ECONNREFUSED/);
    expect(condition(await getObject(name), 'Ready')?.status).not.toBe('True');

    await apply(kubeconfigSecret(secret, kubeconfig));
    // Backoff after a few failures plus the ProviderConfig cache: well within two minutes.
    await ready(name, 120_000);
    expect((await remoteConfigMap(name))?.data).toEqual({ k: 'v' });
    await deleteObjects(name);
    await gone(name);
    await runKubectl(['delete', 'providerconfigs.kubernetes.crossplane.io', providerConfig]);
    await runKubectl(['delete', 'secret', '-n', 'crossplane-system', secret]);
  });

  it('a Ready Object turns Ready=False with the connection error when its cluster goes down, and Ready again as soon as it is back', async () => {
    // A cluster of its own, since this one is taken down: etcd and the controller manager keep
    // running, and the API server stops and starts again on the same port with the same state.
    const dir = await mkdtemp(join(tmpdir(), 'chronoplane-outage-'));
    const spec = { name: 'outage', dir, apiserverPort: await freePort(), etcdClientPort: await freePort(), etcdPeerPort: await freePort() };
    const cluster = await startRemoteCluster(spec, false);
    const [name, providerConfig, secret] = [named('outage'), named('outage'), named('outage-kubeconfig')];
    try {
      await apply(kubeconfigSecret(secret, cluster.kubeconfig));
      await apply(providerConfigFor(providerConfig, secret));
      await apply(object(name, configMap({ k: 'v' }), { providerConfigRef: { name: providerConfig } }));
      await ready(name, 60_000);

      await stopProcess(join(dir, 'run', 'kube-apiserver.pid'));
      // Polls are ten minutes apart here: only the target's broken watch can tell the Object this soon.
      const down = await eventually(
        async () => {
          const found = condition(await getObject(name), 'Ready');
          return found?.status === 'False' && found;
        },
        `Object ${name} to be Ready=False`,
        30_000,
      );
      expect(down.reason).toBe('Unavailable');
      expect(down.message).toContain(`target cluster (ProviderConfig "${providerConfig}")`);
      expect(down.message).toMatch(/ECONNREFUSED/);
      expect(condition(await getObject(name), 'Synced')?.status).toBe('False');

      // Down long enough for the backoff between passes (5, 10, 20 s, then 40 s) to outlast the
      // restart below, so only the restored watch (retried every 5 s at most) can make it Ready
      // this soon.
      await plane.failedPasses(workflowIdFor(refFor(objectApi, '', name)), 4);
      const restartedAt = Date.now();
      await startRemoteCluster(spec, false);
      await ready(name, 30_000);
      expect(Date.now() - restartedAt, 'Ready again before the next pass the backoff would run').toBeLessThan(38_000);
      const target = JSON.parse(
        await runKubectl(['get', 'configmap', '-n', 'default', name, '-o', 'json'], undefined, cluster.kubeconfigPath),
      );
      expect(target.data).toEqual({ k: 'v' });
      await deleteObjects(name);
      await gone(name);
    } finally {
      await stopKubeCluster(dir);
      await runKubectl(['delete', 'providerconfigs.kubernetes.crossplane.io', providerConfig, '--ignore-not-found']);
      await runKubectl(['delete', 'secret', '-n', 'crossplane-system', secret, '--ignore-not-found']);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a malformed kubeconfig’s Secret, never its content', async () => {
    const [name, providerConfig, secret] = [named('malformed'), named('malformed'), named('malformed-kubeconfig')];
    const content = `apiVersion: v1\nclusters: [ {{ ${randomBytes(8).toString('hex')}`;
    await apply(kubeconfigSecret(secret, content));
    await apply(providerConfigFor(providerConfig, secret));
    await apply(object(name, configMap({ k: 'v' }), { providerConfigRef: { name: providerConfig } }));
    const failing = await conditionBecomes(name, 'Synced', 'False');
    expect(failing.message).toContain(`Secret crossplane-system/${secret}`);
    expect(failing.message).toContain('is not valid YAML or JSON');
    const secretPart = content.slice(-16);
    expect(plane.logs.join('').includes(secretPart), 'kubeconfig content in logs').toBe(false);
    expect(JSON.stringify(await getObject(name)).includes(secretPart), 'kubeconfig content in the Object').toBe(false);
    // Deleting it needs the target cluster too (its object might exist there): fix the config first.
    await apply(providerConfigFor(providerConfig, `${REMOTE}-kubeconfig`));
    await ready(name, 120_000);
    await deleteObjects(name);
    await gone(name);
    await runKubectl(['delete', 'providerconfigs.kubernetes.crossplane.io', providerConfig]);
    await runKubectl(['delete', 'secret', '-n', 'crossplane-system', secret]);
  });
});

describe('provider-kubernetes v1.2.1’s own examples, applied verbatim', () => {
  /** Applies an example file as it ships, waits for every Object in it, and returns their names. */
  const applyExample = async (path: string) => {
    const file = join(examplesDir, 'cluster', 'object', path);
    const documents = parseAllDocuments(await readFile(file, 'utf8')).map(
      (d) => d.toJS() as { kind?: string; metadata?: { name?: string } },
    );
    const names = documents.filter((d) => d?.kind === 'Object').map((d) => d.metadata!.name!);
    await runKubectl(['apply', '-f', file]);
    return { file, names };
  };
  const deleteExample = async ({ file, names }: { file: string; names: string[] }) => {
    await runKubectl(['delete', '-f', file, '--wait=false']);
    await Promise.all(names.map(gone));
  };

  it('object.yaml: a Namespace named after its Object, for ProviderConfig kubernetes-provider', async () => {
    const example = await applyExample('object.yaml');
    await ready('sample-namespace');
    const namespace = JSON.parse(await remoteKubectl(REMOTE, ['get', 'namespace', 'sample-namespace', '-o', 'json']));
    expect(namespace.metadata.labels).toMatchObject({ example: 'true' });
    await deleteExample(example);
    await eventually(async () => (await remoteObject('namespace', 'sample-namespace', '')) === undefined, 'the namespace to go');
  });

  it('object-ssa-owner.yaml and object-ssa-labeler.yaml: two Objects own different fields of one Service', async () => {
    const owner = await applyExample('object-ssa-owner.yaml');
    const labeler = await applyExample('object-ssa-labeler.yaml');
    await Promise.all([ready('sample-service-owner'), ready('sample-service-labeler')]);
    const service = JSON.parse(
      await remoteKubectl(REMOTE, ['get', 'service', '-n', 'default', 'sample-service', '-o', 'json', '--show-managed-fields']),
    );
    expect(service?.metadata.labels).toEqual({ 'some-key': 'some-value', 'another-key': 'another-value' });
    const managers = (service?.metadata.managedFields as { manager: string }[]).map((m) => m.manager);
    expect(managers).toEqual(expect.arrayContaining(['chronoplane/sample-service-owner', 'chronoplane/sample-service-labeler']));

    // The labeler may not delete ("Observe", "Update"): the Service stays with the owner.
    await deleteExample(labeler);
    expect(await remoteObject('service', 'sample-service')).toBeDefined();
    await deleteExample(owner);
    await eventually(async () => (await remoteObject('service', 'sample-service')) === undefined, 'the Service to go');
  });

  it('references/patches-from-resource.yaml: a field copied from a ConfigMap in the control cluster', async () => {
    const example = await applyExample('references/patches-from-resource.yaml');
    await ready('foo');
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value', 'sample-key-from-bar': 'sample-value' });
    await deleteExample(example);
    expect(await remoteConfigMap('foo')).toBeUndefined();
  });

  it('references/depends-on-object.yaml: foo depends on bar, and both land', async () => {
    const example = await applyExample('references/depends-on-object.yaml');
    await Promise.all([ready('foo'), ready('bar')]);
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value' });
    await deleteExample(example);
    expect(await remoteConfigMap('bar')).toBeUndefined();
  });

  it('policy/observe-create-update.yaml: created, and left in the target when the Object goes', async () => {
    const example = await applyExample('policy/observe-create-update.yaml');
    await ready('foo');
    await deleteExample(example);
    expect((await remoteConfigMap('foo'))?.data).toEqual({ 'sample-key': 'sample-value' });
    await remoteKubectl(REMOTE, ['delete', 'configmap', '-n', 'default', 'foo']);
  });
});
