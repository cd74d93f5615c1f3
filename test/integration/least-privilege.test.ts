// The Helm chart's RBAC, proven with real processes: a worker (with the watcher inside, as the
// chart runs it, and leader election on) authenticates as the chart's ServiceAccount, with a
// token from `kubectl create token`, and takes every kind through its life: the AWS network of
// examples/aws-network/ with a sample of each EC2 kind it lacks (the kind's fixtures.ts), Objects
// of both groups (a remote cluster's and, through a namespaced InjectedIdentity ProviderConfig,
// the control cluster's own namespace), and a KubernetesApplication. The control cluster's audit log then shows which verbs it used: none
// was refused, and the chart grants no verb the run did not use.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FALLBACK_ONLY_GRANTS } from '#generate/controller-rbac';
import { INJECTED_IDENTITY_SERVICE_ACCOUNT } from '#providers/kubernetes/cluster-connection';
import { CONTROLLER_NAMESPACE, installControllerIdentity, type ControllerIdentity } from '#stack/controller-identity';
import { REMOTE_CLUSTER_SECRET_KEY } from '#stack/remote-clusters';
import { auditedRequests, forbidden, grantedPermissions, usedPermissions, type PolicyRule } from './audit-log';
import { ControlPlane, eventually, remoteCluster, remoteKubectl } from './harness';
import { registerKubernetesClusters } from './kubernetes-clusters';
import { runKubectl } from './kubectl';
import { getResource, readyResource, type KubeObject } from './resources';
import { kindFor } from '#providers/registry';
import { EC2_GROUP, ec2KindFixtures, samplesOfMissingKinds } from '#test/kind-fixtures';
import {
  leftovers,
  managedObjects,
  managedOnly,
  networkManifests,
  useOwnProviderConfig,
  withProviderConfig,
  type Manifest,
} from './network';
import { REMOTE, namer } from './objects';

let plane: ControlPlane;
let identity: ControllerIdentity;
const named = namer();

beforeAll(async () => {
  identity = await installControllerIdentity(
    inject('kubeconfigPath'),
    join(tmpdir(), `chronoplane-identity-${randomBytes(3).toString('hex')}`),
  );
  plane = await ControlPlane.start('rbac', {
    KUBECONFIG: identity.kubeconfigPath,
    // As the chart runs it: the watcher inside the worker, elected through a Lease in the
    // release's namespace.
    CHRONOPLANE_EMBEDDED_WATCHER: 'true',
    CHRONOPLANE_LEADER_ELECTION: 'true',
    CHRONOPLANE_LEADER_ELECTION_NAMESPACE: CONTROLLER_NAMESPACE,
  });
});
afterAll(async () => {
  await plane?.stop();
});

const get = getResource;
const readyIn = readyResource;

const gone = (resource: string, name: string, namespace?: string) =>
  eventually(async () => (await get(resource, name, namespace)) === undefined, `${resource} ${name} to be gone`, 120_000);

async function remoteKubectlJson(kind: string, name: string, namespace: string): Promise<KubeObject | undefined> {
  try {
    return JSON.parse(await remoteKubectl(REMOTE, ['get', kind, '-n', namespace, name, '-o', 'json'])) as KubeObject;
  } catch (error) {
    if (String(error).includes('NotFound')) return undefined;
    throw error;
  }
}

const remoteConfigMap = (name: string, namespace: string) => remoteKubectlJson('configmap', name, namespace);

/** A VPC outside the example network, whose tag the network's VPC copies. */
const sourceVpc: Manifest = {
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'VPC',
  metadata: { name: 'rbac-source' },
  spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.30.0.0/16', tags: { team: 'platform' } } },
};

/**
 * An object of a kind that declares no typed reference (the example's VPC, Address and KeyPair)
 * with a tag copied from a VPC by a generic reference, so that every kind gets replaced whole, as
 * resolved references are written. A VPC copies from the one outside the network.
 */
function withCopiedTag(manifest: Manifest): Manifest {
  if (!copiesTag(manifest)) return manifest;
  const reference = {
    patchesFrom: {
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'VPC',
      name: manifest.kind === 'VPC' ? sourceVpc.metadata.name : 'network',
      fieldPath: 'spec.forProvider.tags.team',
    },
    toFieldPath: 'tags.copied',
  };
  return { ...manifest, spec: { ...manifest.spec, references: [reference] } };
}

const copiesTag = (manifest: Manifest): boolean =>
  manifest.spec?.forProvider !== undefined && (kindFor(EC2_GROUP, manifest.kind).references ?? []).length === 0;

describe('the worker and watcher as the chart’s ServiceAccount', () => {
  it('bring the AWS network up to all Ready, with its connection Secrets, and delete it to nothing', async () => {
    // The example network and a sample of each registered EC2 kind it lacks, signed by a
    // ProviderConfig of the namespace, as a tenant's resources are; the kinds that have no typed
    // reference copy a tag through a generic one, the write that replaces an object. The source
    // VPC keeps the default ClusterProviderConfig.
    const network = await networkManifests();
    const everyKind = [...network, ...samplesOfMissingKinds(network, await ec2KindFixtures())];
    const manifests = [sourceVpc, ...withProviderConfig(everyKind.map(withCopiedTag), await useOwnProviderConfig(plane))];
    await plane.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }));
    await Promise.all(managedOnly(manifests).map((m) => plane.ready(m.kind, m.metadata.name, 180_000)));
    const copying = everyKind.filter(copiesTag);
    expect(copying.length).toBeGreaterThan(0);
    for (const m of copying)
      expect(
        (await plane.getObject(m.kind.toLowerCase(), m.metadata.name))?.spec.forProvider.tags,
        `${m.kind} ${m.metadata.name}`,
      ).toMatchObject({ copied: 'platform' });
    await plane.kubectl(['delete', '--wait=false', ...manifests.map((m) => `${m.kind.toLowerCase()}/${m.metadata.name}`)]);
    await eventually(async () => (await managedObjects(plane)).length === 0, 'every managed object to be gone', 180_000);
    expect(await leftovers(plane)).toEqual({});
  });

  it('take Objects of both groups to a remote cluster, patch one from another, publish connection details, and delete them', async () => {
    const ns = plane.namespace;
    const [legacy, modern, patched] = [named('rbac-legacy'), named('rbac-modern'), named('rbac-patched')];
    const configMap = (name: string, data: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
      data,
    });
    // A ClusterProviderConfig that serves only this namespace (our namespaceSelector).
    const selective = named('rbac-selective');
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ClusterProviderConfig',
        metadata: { name: selective },
        spec: {
          credentials: { source: 'Secret', secretRef: { ...remoteCluster(REMOTE).secret, key: REMOTE_CLUSTER_SECRET_KEY } },
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
        },
      }),
    );
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubernetes.crossplane.io/v1alpha2',
        kind: 'Object',
        metadata: { name: legacy },
        spec: { forProvider: { manifest: configMap(legacy, { owner: 'rbac' }) }, providerConfigRef: { name: REMOTE } },
      }),
    );
    const modernObject = (color: string) => ({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: { name: modern },
      spec: {
        forProvider: { manifest: configMap(modern, { color }) },
        providerConfigRef: { kind: 'ClusterProviderConfig', name: selective },
        // Published, and published again when the target changes.
        connectionDetails: [{ apiVersion: 'v1', kind: 'ConfigMap', name: modern, namespace: 'default', fieldPath: 'data.color' }],
        writeConnectionSecretToRef: { name: `${modern}-conn` },
      },
    });
    await plane.apply(modernObject('blue'));
    // Its manifest takes a value from the other Object: a resolved reference written into it.
    await plane.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: { name: patched },
      spec: {
        references: [
          {
            patchesFrom: {
              apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
              kind: 'Object',
              name: modern,
              fieldPath: 'spec.forProvider.manifest.data.color',
            },
            toFieldPath: 'data.color',
          },
        ],
        forProvider: { manifest: configMap(patched, {}) },
        providerConfigRef: { kind: 'ClusterProviderConfig', name: REMOTE },
      },
    });
    const legacyPatched = named('rbac-legacy-patched');
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubernetes.crossplane.io/v1alpha2',
        kind: 'Object',
        metadata: { name: legacyPatched },
        spec: {
          references: [
            {
              patchesFrom: {
                apiVersion: 'kubernetes.crossplane.io/v1alpha2',
                kind: 'Object',
                name: legacy,
                fieldPath: 'spec.forProvider.manifest.data.owner',
              },
              toFieldPath: 'data.owner',
            },
          ],
          forProvider: { manifest: configMap(legacyPatched, {}) },
          providerConfigRef: { name: REMOTE },
        },
      }),
    );
    await readyIn('objects.kubernetes.crossplane.io', legacy);
    await readyIn('objects.kubernetes.crossplane.io', legacyPatched);
    expect((await remoteConfigMap(legacyPatched, 'default'))?.data).toEqual({ owner: 'rbac' });
    await readyIn('objects.kubernetes.m.crossplane.io', modern, ns);
    await readyIn('objects.kubernetes.m.crossplane.io', patched, ns);
    expect((await remoteConfigMap(legacy, 'default'))?.data).toEqual({ owner: 'rbac' });
    expect((await remoteConfigMap(patched, 'default'))?.data).toEqual({ color: 'blue' });
    const published = async () => {
      const secret = await get('secret', `${modern}-conn`, ns);
      return secret?.data?.color === undefined ? undefined : Buffer.from(secret.data.color, 'base64').toString();
    };
    await eventually(async () => (await published()) === 'blue', 'the connection Secret to hold blue');
    await plane.apply(modernObject('green'));
    await eventually(async () => (await published()) === 'green', 'the connection Secret to hold green');

    await runKubectl(['delete', 'objects.kubernetes.crossplane.io', legacyPatched, legacy, '--wait=false']);
    await gone('objects.kubernetes.crossplane.io', legacyPatched);
    await plane.kubectl(['delete', 'objects.kubernetes.m.crossplane.io', patched, modern, '--wait=false']);
    await gone('objects.kubernetes.crossplane.io', legacy);
    await gone('objects.kubernetes.m.crossplane.io', patched, ns);
    await gone('objects.kubernetes.m.crossplane.io', modern, ns);
    for (const name of [legacy, legacyPatched, modern, patched]) expect(await remoteConfigMap(name, 'default')).toBeUndefined();
  });

  it('keep an ObservedObjectCollection of each group, with one member per matching object, as matching objects come, and delete them', async () => {
    const remoteNs = named('rbac-collection');
    await remoteKubectl(REMOTE, ['create', 'namespace', remoteNs]);
    const label = named('watched');
    const labelledConfigMaps: string[] = [];
    const addLabelledConfigMap = async () => {
      const name = `c${labelledConfigMaps.length + 1}`;
      await remoteKubectl(
        REMOTE,
        ['apply', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: remoteNs, labels: { rbac: label } } }),
      );
      labelledConfigMaps.push(name);
    };
    await addLabelledConfigMap();
    const collections = [
      {
        resource: 'observedobjectcollections.kubernetes.m.crossplane.io',
        members: 'objects.kubernetes.m.crossplane.io',
        namespace: plane.namespace as string | undefined,
        manifest: { apiVersion: 'kubernetes.m.crossplane.io/v1alpha1', providerConfigRef: { kind: 'ClusterProviderConfig', name: REMOTE } },
      },
      {
        resource: 'observedobjectcollections.kubernetes.crossplane.io',
        members: 'objects.kubernetes.crossplane.io',
        namespace: undefined,
        manifest: { apiVersion: 'kubernetes.crossplane.io/v1alpha1', providerConfigRef: { name: REMOTE } },
      },
    ];
    for (const collection of collections) {
      const name = named('rbac-collection');
      const { apiVersion, providerConfigRef } = collection.manifest;
      await runKubectl(
        ['apply', '-f', '-'],
        JSON.stringify({
          apiVersion,
          kind: 'ObservedObjectCollection',
          metadata: { name, ...(collection.namespace ? { namespace: collection.namespace } : {}) },
          spec: {
            observeObjects: { apiVersion: 'v1', kind: 'ConfigMap', namespace: remoteNs, selector: { matchLabels: { rbac: label } } },
            providerConfigRef,
          },
        }),
      );
      await readyIn(collection.resource, name, collection.namespace);
      const members = async () => {
        const list = JSON.parse(
          await runKubectl([
            ...(collection.namespace ? ['-n', collection.namespace] : []),
            'get',
            collection.members,
            '-l',
            `kubernetes.crossplane.io/owned-by-collection=${name}`,
            '-o',
            'json',
          ]),
        ) as { items: KubeObject[] };
        return list.items;
      };
      await eventually(
        async () => (await members()).length === labelledConfigMaps.length,
        `collection ${name} to have ${labelledConfigMaps.length} members`,
      );
      // Another matching object: the collection's update adds its member.
      await addLabelledConfigMap();
      await eventually(
        async () => (await members()).length === labelledConfigMaps.length,
        `collection ${name} to follow a new matching object`,
      );
      await runKubectl([
        ...(collection.namespace ? ['-n', collection.namespace] : []),
        'delete',
        collection.resource,
        name,
        '--wait=false',
      ]);
      await gone(collection.resource, name, collection.namespace);
      await eventually(async () => (await members()).length === 0, `collection ${name}'s members to be gone`);
    }
    // Observed, never owned: the ConfigMaps stay.
    for (const name of labelledConfigMaps) expect(await remoteConfigMap(name, remoteNs)).toBeDefined();
    await remoteKubectl(REMOTE, ['delete', 'namespace', remoteNs, '--wait=false']);
  });

  it('reach the control cluster through a namespaced InjectedIdentity ProviderConfig only with that namespace’s ServiceAccount', async () => {
    const ns = plane.namespace;
    const config = named('local');
    await plane.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: config },
      spec: { credentials: { source: 'InjectedIdentity' } },
    });
    // The tenant's admin grants its own ServiceAccount what its Objects may do; the worker
    // impersonates it and holds no such rights itself.
    await plane.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: INJECTED_IDENTITY_SERVICE_ACCOUNT } });
    await plane.apply({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'provider-kubernetes-edit' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'ServiceAccount', name: INJECTED_IDENTITY_SERVICE_ACCOUNT, namespace: ns }],
    });
    const local = named('rbac-local');
    await plane.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'Object',
      metadata: { name: local },
      spec: {
        forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } } },
        providerConfigRef: { kind: 'ProviderConfig', name: config },
      },
    });
    await readyIn('objects.kubernetes.m.crossplane.io', local, ns);
    expect(((await get('configmap', local, ns)) as { data?: unknown } | undefined)?.data).toEqual({ k: 'v' });
    await plane.kubectl(['delete', 'objects.kubernetes.m.crossplane.io', local, '--wait=false']);
    await gone('objects.kubernetes.m.crossplane.io', local, ns);
    await gone('configmap', local, ns);
  });

  it('schedule a KubernetesApplication to its cluster, submit its resources, and delete them', async () => {
    const ns = plane.namespace;
    const cluster = named('rbac-cluster');
    await registerKubernetesClusters(ns, [{ name: cluster, remote: REMOTE, labels: { rbac: 'proof' } }]);
    const app = named('rbac-app');
    const target = `${app}-config`;
    const sql = named('rbac-sql');
    await plane.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: sql }, stringData: { password: 'not-a-real-one' } });
    const application = (from: string) => ({
      apiVersion: 'workload.crossplane.io/v1alpha1',
      kind: 'KubernetesApplication',
      metadata: { name: app, labels: { app } },
      spec: {
        resourceSelector: { matchLabels: { app } },
        clusterSelector: { matchLabels: { rbac: 'proof' } },
        resourceTemplates: [
          {
            metadata: { name: target, labels: { app } },
            spec: {
              // Copied next to the template in the target cluster, from this namespace.
              secrets: [{ name: sql }],
              template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: target, namespace: 'default' }, data: { from } },
            },
          },
        ],
      },
    });
    await plane.apply(application('app'));
    await eventually(
      async () => (await get('kubernetesapplications.workload.crossplane.io', app, ns))?.status?.state === 'Submitted',
      `KubernetesApplication ${app} to be Submitted`,
      120_000,
    );
    expect((await remoteConfigMap(target, 'default'))?.data).toEqual({ from: 'app' });
    expect((await remoteKubectlJson('secret', `${target}-${sql}`, 'default'))?.data?.password).toBeDefined();
    // An edited template updates its KubernetesApplicationResource, and so the target.
    await plane.apply(application('app, edited'));
    await eventually(
      async () => (await remoteConfigMap(target, 'default'))?.data?.from === 'app, edited',
      `ConfigMap ${target} to be updated`,
    );
    await plane.kubectl(['delete', 'kubernetesapplications.workload.crossplane.io', app, '--wait=false']);
    await gone('kubernetesapplications.workload.crossplane.io', app, ns);
    await eventually(async () => (await remoteConfigMap(target, 'default')) === undefined, `ConfigMap ${target} to be gone from ${REMOTE}`);
  });

  it('were refused nothing, and used every verb the chart grants', async () => {
    // A leader renews its Lease every few seconds: the watch events and renewals are in.
    const requests = await auditedRequests(inject('kubeAuditLog'), identity.user);
    expect(requests.length).toBeGreaterThan(0);
    expect(forbidden(requests).filter((request) => !request.impersonated)).toEqual([]);
    const rules = identity.rbac
      .filter((object) => object.kind === 'ClusterRole' || object.kind === 'Role')
      .flatMap((role) => (role.rules ?? []) as PolicyRule[]);
    const granted = grantedPermissions(rules);
    const used = usedPermissions(requests);
    // For the closing note of whoever changes the role: what this run needed.
    console.log(`the chart's ServiceAccount used:\n  ${used.join('\n  ')}`);
    expect(
      granted.filter((permission) => !used.includes(permission) && !FALLBACK_ONLY_GRANTS.some((grant) => grant.permission === permission)),
      'granted by the chart but never used',
    ).toEqual([]);
    expect(
      used.filter((permission) => !granted.includes(permission)),
      'used without a grant of the chart',
    ).toEqual([]);
  });
});
