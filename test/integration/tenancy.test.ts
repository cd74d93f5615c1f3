// Two tenants of one control plane (issue 20), each acting only through impersonation with the
// rights Kubernetes' `admin` role gives in its own namespace (deploy/rbac/ aggregated into it):
// alice in team-a, bob in team-b. First what a tenant may do (its own VPCs, references inside
// its namespace, its own ProviderConfig, a ClusterProviderConfig that selects its namespace);
// then bob tries every path of docs/security.md's threat model against team-a: each is refused
// with a message that says why, and afterwards team-a's objects and Secrets (resourceVersion
// included) and its VPC and key pair at EC2 are byte for byte what they were before.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { DescribeKeyPairsCommand, DescribeVpcsCommand } from '@aws-sdk/client-ec2';
import { allCrds } from '#providers/all-crds';
import { INJECTED_IDENTITY_SERVICE_ACCOUNT } from '#providers/kubernetes/cluster-connection';
import { condition, eventually, vpcManifest } from './harness';
import { runKubectl } from './kubectl';
import { canI, startTenants, type Tenant, type Tenants } from './tenants';

const VPCS = 'vpcs.ec2.aws.chronoplane.io';
const SUBNETS = 'subnets.ec2.aws.chronoplane.io';
const KEYPAIRS = 'keypairs.ec2.aws.chronoplane.io';
const AWS_PROVIDERCONFIGS = 'providerconfigs.aws.chronoplane.io';
const M_OBJECTS = 'objects.kubernetes.m.crossplane.io';
const M_PROVIDERCONFIGS = 'providerconfigs.kubernetes.m.crossplane.io';
const EXTERNAL_NAME = 'crossplane.io/external-name';
/** moto accepts any keys; a tenant's own credentials file, in its own namespace. */
const TENANT_AWS_CREDENTIALS = ['[default]', 'aws_access_key_id = team', 'aws_secret_access_key = team', ''].join('\n');
const TEAM_A_PASSWORD = 'team-a-s3cret-password';

let tenants: Tenants;
let a: Tenant;
let b: Tenant;
/** Team-a's VPC and key pair at EC2, which bob tries to take over. */
let teamAVpcId: string;
let teamAKeyName: string;
/** Names of the ClusterProviderConfigs this file creates, as cluster admin. */
let teamAOnlyConfig: string;

beforeAll(async () => {
  tenants = await startTenants('tenancy');
  ({ a, b } = tenants);
  teamAOnlyConfig = `team-a-only-${tenants.suffix}`;
}, 240_000);

afterAll(async () => {
  await runKubectl(['delete', 'clusterproviderconfigs.aws.chronoplane.io', teamAOnlyConfig, '--ignore-not-found']).catch(() => {});
  // Whatever an escalation that was not refused left behind (each is a failed test already).
  for (const binding of ['bob-cluster-admin', 'bob-files']) {
    await runKubectl(['delete', 'clusterrolebinding', `${binding}-${tenants?.suffix}`, '--ignore-not-found']).catch(() => {});
  }
  for (const tenant of [tenants?.a, tenants?.b]) {
    if (!tenant) continue;
    // As the tenant: what it made, it can remove (finalizers released by its own worker).
    await tenant
      .kubectl(['delete', [VPCS, SUBNETS, KEYPAIRS, M_OBJECTS].join(','), '--all', '--wait=true', '--timeout=120s'])
      .catch(() => {});
  }
  await tenants?.stop();
  // The worker may have run a tenant's exec command again after the test removed its mark.
  if (tenants) await rm(execMarker(), { force: true });
  for (const tenant of [tenants?.a, tenants?.b]) {
    if (tenant) await runKubectl(['delete', 'namespace', tenant.namespace, '--wait=false', '--ignore-not-found']);
  }
}, 300_000);

/** The file a tenant's kubeconfig `exec` command would create in the worker. */
const execMarker = () => join(tmpdir(), `chronoplane-tenancy-exec-${tenants.suffix}`);

/** Every namespaced resource a tenant could touch: Secrets, ConfigMaps and each namespaced CRD. */
const TENANT_RESOURCES = [
  'secrets',
  'configmaps',
  ...allCrds()
    .filter((crd) => crd.spec.scope === 'Namespaced')
    .map((crd) => crd.metadata.name),
];

/**
 * Team-a as the API server and EC2 hold it: every object of its namespace (read as cluster
 * admin, resourceVersion included, the list's own resourceVersion aside) and its VPC and key
 * pair at moto, tags included.
 */
async function teamAState(): Promise<{ api: string; vpc: string; keyPair: string }> {
  const list = JSON.parse(await runKubectl(['get', TENANT_RESOURCES.join(','), '-n', a.namespace, '-o', 'json'])) as {
    items: { kind: string; metadata: { name: string } }[];
  };
  const items = list.items.sort((x, y) => `${x.kind}/${x.metadata.name}`.localeCompare(`${y.kind}/${y.metadata.name}`));
  const [vpcs, keyPairs] = await Promise.all([
    a.plane.ec2.send(new DescribeVpcsCommand({ VpcIds: [teamAVpcId] })),
    a.plane.ec2.send(new DescribeKeyPairsCommand({ KeyNames: [teamAKeyName] })),
  ]);
  return { api: JSON.stringify(items, null, 1), vpc: JSON.stringify(vpcs.Vpcs), keyPair: JSON.stringify(keyPairs.KeyPairs) };
}

const secret = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: data });
const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

/** A namespaced AWS ProviderConfig reading `secretNamespace`/`secretName` (moto's endpoint). */
const awsProviderConfig = (name: string, secretNamespace: string, secretName: string) => ({
  apiVersion: 'aws.chronoplane.io/v1alpha1',
  kind: 'ProviderConfig',
  metadata: { name },
  spec: {
    credentials: { source: 'Secret', secretRef: { namespace: secretNamespace, name: secretName, key: 'credentials' } },
    endpoint: { url: a.plane.ec2Endpoint },
  },
});

/** A kubernetes.m.crossplane.io Object, as provider-kubernetes' v2 examples write one. */
const mObject = (name: string, manifest: object, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
  kind: 'Object',
  metadata: { name },
  spec: { forProvider: { manifest }, providerConfigRef: { kind: 'ProviderConfig', name: 'in-cluster' }, ...extra },
});

describe('what a tenant may do in its own namespace', () => {
  it('its admin role has been given the managed kinds and its namespaced ProviderConfigs, and nothing of another namespace', async () => {
    for (const probe of [
      'create vpcs.ec2.aws.chronoplane.io',
      `create ${AWS_PROVIDERCONFIGS}`,
      `create ${M_OBJECTS}`,
      `create ${M_PROVIDERCONFIGS}`,
    ]) {
      expect(await canI('alice', a.namespace, probe), probe).toBe('yes');
      expect(await canI('alice', b.namespace, probe), `${probe} in team-b`).toBe('no');
    }
    expect(await canI('alice', a.namespace, 'get secrets')).toBe('yes');
    expect(await canI('alice', b.namespace, 'get secrets')).toBe('no');
  });

  it('creates its own VPC, lists it, and its Secrets and ConfigMaps are its own', async () => {
    await a.apply(secret('db', { password: TEAM_A_PASSWORD }));
    await a.apply(configMap('settings', { owner: 'team-a', team: 'a' }));
    await a.apply({ ...vpcManifest('a-vpc', { cidrBlock: '10.30.0.0/16' }), metadata: { name: 'a-vpc', labels: { team: 'a' } } });
    const vpc = await a.ready(VPCS, 'a-vpc');
    teamAVpcId = vpc.status!.atProvider!.vpcId as string;
    expect(teamAVpcId).toMatch(/^vpc-/);
    expect(await a.kubectl(['get', VPCS, '-o', 'name'])).toContain('a-vpc');
  });

  it('resolves typed and generic references inside its namespace', async () => {
    const settings = { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' };
    await a.apply({
      ...vpcManifest('a-from-settings', {}),
      spec: {
        forProvider: { region: 'us-east-1', cidrBlock: '10.31.0.0/16' },
        references: [
          { fromObject: { ...settings, fieldPath: 'data.owner' }, toFieldPath: 'spec.forProvider.tags.owner' },
          { patchesFrom: { ...settings, fieldPath: 'data.team' }, toFieldPath: 'tags.team' },
        ],
      },
    });
    const vpc = await a.ready(VPCS, 'a-from-settings');
    expect(vpc.spec.forProvider.tags).toEqual({ owner: 'team-a', team: 'a' });
    await a.apply({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'Subnet',
      metadata: { name: 'a-subnet' },
      spec: {
        forProvider: { region: 'us-east-1', availabilityZone: 'us-east-1a', cidrBlock: '10.30.1.0/24', vpcIdRef: { name: 'a-vpc' } },
      },
    });
    expect((await a.ready(SUBNETS, 'a-subnet')).spec.forProvider.vpcId).toBe(teamAVpcId);
  });

  it('uses a ProviderConfig of its own namespace, whose credentials are a Secret there', async () => {
    await a.apply(secret('aws-creds', { credentials: TENANT_AWS_CREDENTIALS }));
    await a.apply(awsProviderConfig('creds', a.namespace, 'aws-creds'));
    await a.apply(
      vpcManifest(
        'a-own-config',
        { cidrBlock: '10.32.0.0/16' },
        { spec: { providerConfigRef: { kind: 'ProviderConfig', name: 'creds' } } },
      ),
    );
    await a.ready(VPCS, 'a-own-config');
    expect(await a.kubectl(['get', AWS_PROVIDERCONFIGS, '-o', 'name'])).toContain('creds');
  });

  it('uses a ClusterProviderConfig whose namespaceSelector selects its namespace', async () => {
    // The platform team's part: a ClusterProviderConfig for team-a's namespaces only.
    await runKubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'aws.chronoplane.io/v1alpha1',
        kind: 'ClusterProviderConfig',
        metadata: { name: teamAOnlyConfig },
        spec: {
          credentials: { source: 'Secret', secretRef: { namespace: 'chronoplane-system', name: 'aws-credentials', key: 'credentials' } },
          endpoint: { url: a.plane.ec2Endpoint },
          namespaceSelector: { matchLabels: { 'chronoplane.io/tenant': 'team-a' } },
        },
      }),
    );
    await a.apply(
      vpcManifest(
        'a-selected',
        { cidrBlock: '10.33.0.0/16' },
        { spec: { providerConfigRef: { kind: 'ClusterProviderConfig', name: teamAOnlyConfig } } },
      ),
    );
    await a.ready(VPCS, 'a-selected');
  });

  it('creates a key pair, its private key in a connection Secret of its own namespace', async () => {
    await a.apply({
      apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
      kind: 'KeyPair',
      metadata: { name: 'a-key' },
      spec: { forProvider: { region: 'us-east-1', keyType: 'ed25519' }, writeConnectionSecretToRef: { name: 'a-key' } },
    });
    const keyPair = await a.ready(KEYPAIRS, 'a-key');
    teamAKeyName = keyPair.status!.atProvider!.keyName as string;
    expect(teamAKeyName).toBeTruthy();
    await eventually(async () => (await a.get('secrets', 'a-key')) !== undefined, 'the key pair connection Secret');
  });

  it('manages Kubernetes objects of its own namespace through a namespaced provider-kubernetes ProviderConfig (InjectedIdentity)', async () => {
    for (const tenant of [a, b]) {
      await tenant.apply({
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: 'in-cluster' },
        spec: { credentials: { source: 'InjectedIdentity' } },
      });
      // Such a ProviderConfig acts as this ServiceAccount of its namespace, with the rights the
      // tenant grants it here: Kubernetes lets bob bind only what bob holds himself.
      await tenant.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: INJECTED_IDENTITY_SERVICE_ACCOUNT } });
      await tenant.apply({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'provider-kubernetes-edit' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'ServiceAccount', name: INJECTED_IDENTITY_SERVICE_ACCOUNT, namespace: tenant.namespace }],
      });
    }
    await b.apply(mObject('b-config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-config' }, data: { team: 'b' } }));
    await b.ready(M_OBJECTS, 'b-config');
    expect((await b.get('configmaps', 'b-config'))?.metadata.name).toBe('b-config');
  });
});

describe('what a tenant may not do', () => {
  let before: Awaited<ReturnType<typeof teamAState>>;

  it("takes a snapshot of team-a's state, every object Ready and Synced", async () => {
    // What bob's attempts must leave alone: anything that changes it from here on is a finding.
    for (const [resource, name] of [
      [VPCS, 'a-vpc'],
      [VPCS, 'a-from-settings'],
      [VPCS, 'a-own-config'],
      [VPCS, 'a-selected'],
      [SUBNETS, 'a-subnet'],
      [KEYPAIRS, 'a-key'],
    ] as const) {
      await a.ready(resource, name);
    }
    before = await teamAState();
  });

  describe('RBAC: nothing cluster-scoped, nothing of another namespace', () => {
    it('cannot create ClusterProviderConfigs, the legacy cluster-scoped Object or ProviderConfigs', async () => {
      const attempts = [
        {
          apiVersion: 'aws.chronoplane.io/v1alpha1',
          kind: 'ClusterProviderConfig',
          metadata: { name: `bob-${tenants.suffix}` },
          spec: { credentials: { source: 'Environment' } },
        },
        {
          apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
          kind: 'ClusterProviderConfig',
          metadata: { name: `bob-${tenants.suffix}` },
          spec: { credentials: { source: 'InjectedIdentity' } },
        },
        {
          apiVersion: 'kubernetes.crossplane.io/v1alpha1',
          kind: 'ProviderConfig',
          metadata: { name: `bob-${tenants.suffix}` },
          spec: { credentials: { source: 'InjectedIdentity' } },
        },
        {
          apiVersion: 'kubernetes.crossplane.io/v1alpha1',
          kind: 'Object',
          metadata: { name: `bob-${tenants.suffix}` },
          spec: { forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: a.namespace } } } },
        },
      ];
      for (const manifest of attempts) {
        const message = await b.refused(manifest);
        expect(message, manifest.kind).toMatch(/forbidden/i);
        expect(message, manifest.kind).toContain('User "bob" cannot');
      }
    });

    it("cannot read or change another namespace's Secrets and objects directly", async () => {
      for (const args of [
        ['get', 'secret', 'db', '-n', a.namespace],
        ['get', VPCS, '-n', a.namespace],
        ['annotate', VPCS, 'a-vpc', '-n', a.namespace, 'x=y'],
        ['delete', VPCS, 'a-vpc', '-n', a.namespace],
      ]) {
        expect(await b.refusedCommand(args), args.join(' ')).toMatch(/forbidden.*User "bob" cannot/is);
      }
    });

    it("cannot write a status (not even its own objects'), nor relabel its namespace into a ClusterProviderConfig's selector", async () => {
      expect(
        await a.refusedCommand([
          'patch',
          VPCS,
          'a-vpc',
          '--subresource=status',
          '--type=merge',
          '-p',
          '{"status":{"atProvider":{"vpcId":"vpc-forged"}}}',
        ]),
      ).toMatch(/forbidden/i);
      expect(await b.refusedCommand(['label', 'namespace', b.namespace, '--overwrite', 'chronoplane.io/tenant=team-a'])).toMatch(
        /forbidden/i,
      );
    });
  });

  describe("finding 1: reading another namespace's Secrets through references", () => {
    it('refuses fromObject, patchesFrom and dependsOn that name another namespace, at admission', async () => {
      const target = { apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: a.namespace };
      const attempts = [
        { fromObject: { ...target, fieldPath: 'data.password' }, toFieldPath: 'spec.forProvider.tags.leak' },
        { patchesFrom: { ...target, fieldPath: 'data.password' }, toFieldPath: 'tags.leak' },
        { dependsOn: target },
      ];
      for (const reference of attempts) {
        const message = await b.refused({
          ...vpcManifest('b-leak', { cidrBlock: '10.40.0.0/16' }),
          spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.40.0.0/16' }, references: [reference] },
        });
        expect(message, JSON.stringify(reference)).toContain("a reference may only name objects in the object's own namespace");
        expect(message).toContain(a.namespace);
      }
      // The same for provider-kubernetes' v2 Object: no finalizer lands on team-a's ConfigMap.
      const message = await b.refused(
        mObject(
          'b-patch',
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-patch' } },
          {
            references: [
              {
                patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: a.namespace, fieldPath: 'data.owner' },
                toFieldPath: 'data.owner',
              },
            ],
          },
        ),
      );
      expect(message).toContain("a reference may only name objects in the object's own namespace");
    });

    it("resolves typed references and selectors in its own namespace only: team-a's VPC of the same name or labels is never found", async () => {
      await b.apply({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Subnet',
        metadata: { name: 'b-by-ref' },
        spec: {
          forProvider: { region: 'us-east-1', availabilityZone: 'us-east-1a', cidrBlock: '10.30.9.0/24', vpcIdRef: { name: 'a-vpc' } },
        },
      });
      await b.apply({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Subnet',
        metadata: { name: 'b-by-selector' },
        spec: {
          forProvider: {
            region: 'us-east-1',
            availabilityZone: 'us-east-1a',
            cidrBlock: '10.30.8.0/24',
            vpcIdSelector: { matchLabels: { team: 'a' } },
          },
        },
      });
      // Each waits in its own namespace: the name, or the labels, match only team-a's VPC.
      for (const [name, waiting] of [
        ['b-by-ref', new RegExp(b.namespace)],
        ['b-by-selector', /no VPC matches/],
      ] as const) {
        const message = await b.refusedCondition(SUBNETS, name, 'ReferencesResolved', waiting);
        expect(message).not.toContain(teamAVpcId);
        expect((await b.get(SUBNETS, name))!.spec.forProvider.vpcId).toBeUndefined();
      }
      // A typed reference has no namespace to name: the field does not exist.
      const message = await b.refused({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Subnet',
        metadata: { name: 'b-ref-namespace' },
        spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.30.7.0/24', vpcIdRef: { name: 'a-vpc', namespace: a.namespace } } },
      });
      expect(message).toMatch(/unknown field "spec.forProvider.vpcIdRef.namespace"/);
    });
  });

  describe("finding 2: taking over another namespace's external resources", () => {
    it("refuses to adopt team-a's VPC by external name, names its owner, and writes nothing at EC2", async () => {
      await b.apply(vpcManifest('b-takeover', { cidrBlock: '10.30.0.0/16' }, { annotations: { [EXTERNAL_NAME]: teamAVpcId } }));
      const message = await b.refusedCondition(VPCS, 'b-takeover', 'Synced', new RegExp(`VPC ${a.namespace}/a-vpc`));
      expect(message).toContain(teamAVpcId);
      expect(condition(await b.get(VPCS, 'b-takeover'), 'Ready')?.status).toBe('False');
      expect((await teamAState()).vpc).toBe(before.vpc);
      // Deleting the would-be owner deletes nothing at EC2.
      await b.deleteAndWait(VPCS, 'b-takeover');
      expect((await teamAState()).vpc).toBe(before.vpc);
    });

    it("cannot forge team-a's ownership tags on its own VPC", async () => {
      const uid = (await a.get(VPCS, 'a-vpc'))!.metadata.uid;
      const message = await b.refused(vpcManifest('b-forged', { cidrBlock: '10.44.0.0/16', tags: { 'chronoplane.io/uid': uid } }));
      expect(message).toContain('tag keys starting with crossplane- or aws:, and chronoplane.io/uid, are reserved');
    });

    it("refuses to adopt team-a's key pair by name", async () => {
      await b.apply({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'KeyPair',
        metadata: { name: 'b-key', annotations: { [EXTERNAL_NAME]: teamAKeyName } },
        spec: { forProvider: { region: 'us-east-1', keyName: teamAKeyName }, writeConnectionSecretToRef: { name: 'b-key' } },
      });
      await b.refusedCondition(KEYPAIRS, 'b-key', 'Synced', new RegExp(`KeyPair ${a.namespace}/a-key`));
      await b.deleteAndWait(KEYPAIRS, 'b-key');
      expect((await teamAState()).keyPair).toBe(before.keyPair);
    });
  });

  describe("finding 3: spending another namespace's credentials", () => {
    it("cannot name team-a's ProviderConfig: a ProviderConfig serves only its own namespace", async () => {
      await b.apply(
        vpcManifest('b-spend', { cidrBlock: '10.41.0.0/16' }, { spec: { providerConfigRef: { kind: 'ProviderConfig', name: 'creds' } } }),
      );
      const message = await b.refusedCondition(VPCS, 'b-spend', 'Synced', /cannot get ProviderConfig "creds"/);
      expect(message).toContain(`not found in namespace ${b.namespace}`);
    });

    it("cannot point a ProviderConfig of its own at team-a's credentials Secret", async () => {
      for (const config of [
        awsProviderConfig('b-creds', a.namespace, 'aws-creds'),
        {
          apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
          kind: 'ProviderConfig',
          metadata: { name: 'b-kube' },
          spec: { credentials: { source: 'Secret', secretRef: { namespace: a.namespace, name: 'aws-creds', key: 'credentials' } } },
        },
      ]) {
        const message = await b.refused(config);
        expect(message, config.apiVersion).toContain(`a ProviderConfig may only use a Secret in its own namespace (${b.namespace})`);
      }
    });

    it("cannot lend itself the worker's own AWS identity through a ProviderConfig of its own (source Environment)", async () => {
      const message = await b.refused({
        apiVersion: 'aws.chronoplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: 'b-ambient' },
        spec: { credentials: { source: 'Environment' } },
      });
      expect(message).toContain('Environment, the worker\u2019s own AWS identity, is only for ClusterProviderConfigs');
    });

    it('cannot use a ClusterProviderConfig whose namespaceSelector leaves its namespace out', async () => {
      await b.apply(
        vpcManifest(
          'b-unselected',
          { cidrBlock: '10.42.0.0/16' },
          { spec: { providerConfigRef: { kind: 'ClusterProviderConfig', name: teamAOnlyConfig } } },
        ),
      );
      const message = await b.refusedCondition(VPCS, 'b-unselected', 'Synced', /may not be used from namespace/);
      expect(message).toContain(`ClusterProviderConfig ${teamAOnlyConfig} may not be used from namespace ${b.namespace}`);
      expect(await b.plane.vpcsTaggedWithUid((await b.get(VPCS, 'b-unselected'))!.metadata.uid)).toEqual([]);
    });
  });

  describe('finding 4: references that write nowhere', () => {
    it('reports ReferencesResolved=False naming a toFieldPath the kind does not have', async () => {
      await b.apply(configMap('b-settings', { owner: 'team-b' }));
      const cases = [
        {
          name: 'b-no-such-field',
          reference: {
            fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'b-settings', fieldPath: 'data.owner' },
            toFieldPath: 'spec.forProvider.noSuchField',
          },
          path: 'spec.forProvider.noSuchField',
        },
        // patchesFrom counts from spec.forProvider: written as if from the root, it names spec.forProvider.spec.
        {
          name: 'b-from-root',
          reference: {
            patchesFrom: { apiVersion: 'v1', kind: 'ConfigMap', name: 'b-settings', fieldPath: 'data.owner' },
            toFieldPath: 'spec.forProvider.tags.owner',
          },
          path: 'spec.forProvider.spec',
        },
      ];
      for (const { name, reference, path } of cases) {
        await b.apply({
          ...vpcManifest(name, {}),
          spec: { forProvider: { region: 'us-east-1', cidrBlock: '10.43.0.0/16' }, references: [reference] },
        });
        expect(await b.refusedCondition(VPCS, name, 'ReferencesResolved', /./)).toContain(path);
        expect(condition(await b.get(VPCS, name), 'Synced')?.status).toBe('False');
      }
    });
  });

  describe('the other paths of the threat model', () => {
    it("writes connection Secrets only in the object's own namespace: writeConnectionSecretToRef has no namespace", async () => {
      const message = await b.refused({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'KeyPair',
        metadata: { name: 'b-key-elsewhere' },
        spec: { forProvider: { region: 'us-east-1' }, writeConnectionSecretToRef: { name: 'a-key', namespace: a.namespace } },
      });
      expect(message).toMatch(/unknown field "spec.writeConnectionSecretToRef.namespace"/);
    });

    it("reads an Instance's user data only from its own namespace: userDataSecretRef has no namespace", async () => {
      const message = await b.refused({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'Instance',
        metadata: { name: 'b-instance' },
        spec: {
          forProvider: {
            region: 'us-east-1',
            imageId: 'ami-12c6146b',
            instanceType: 't3.micro',
            subnetId: 'subnet-0',
            userDataSecretRef: { namespace: a.namespace, name: 'db', key: 'password' },
          },
        },
      });
      expect(message).toMatch(/unknown field "spec.forProvider.userDataSecretRef.namespace"/);
    });

    it("reads a KubernetesApplicationResource's Secrets and a KubernetesCluster's kubeconfig only from its own namespace", async () => {
      const cluster = await b.refused({
        apiVersion: 'compute.crossplane.io/v1alpha1',
        kind: 'KubernetesCluster',
        metadata: { name: 'b-cluster' },
        spec: { writeConnectionSecretToRef: { name: 'a-kubeconfig', namespace: a.namespace } },
      });
      expect(cluster).toMatch(/unknown field "spec.writeConnectionSecretToRef.namespace"/);
      const resource = await b.refused({
        apiVersion: 'workload.crossplane.io/v1alpha1',
        kind: 'KubernetesApplicationResource',
        metadata: { name: 'b-resource' },
        spec: {
          template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-resource' } },
          secrets: [{ name: 'db', namespace: a.namespace }],
        },
      });
      expect(resource).toMatch(/unknown field "spec.secrets\[0\].namespace"/);
    });

    it("cannot reach another namespace, or anything cluster-scoped, through a namespaced ProviderConfig's InjectedIdentity", async () => {
      // Write a ConfigMap into team-a; read team-a's Secret into status (Observe); grant itself cluster-admin.
      await b.apply(
        mObject('b-write-a', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'from-b', namespace: a.namespace },
          data: { x: 'y' },
        }),
      );
      await b.apply(
        mObject(
          'b-read-a',
          { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: a.namespace } },
          { managementPolicies: ['Observe'] },
        ),
      );
      await b.apply(
        mObject('b-escalate', {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: `bob-cluster-admin-${tenants.suffix}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
        }),
      );
      for (const name of ['b-write-a', 'b-read-a', 'b-escalate']) {
        const message = await b.refusedCondition(M_OBJECTS, name, 'Synced', new RegExp(`ProviderConfig ${b.namespace}/in-cluster`));
        expect(message, name).toContain(b.namespace);
        const object = await b.get(M_OBJECTS, name);
        expect(JSON.stringify(object?.status ?? {}), name).not.toContain(Buffer.from(TEAM_A_PASSWORD).toString('base64'));
      }
      expect(await canI('bob', a.namespace, 'get secrets')).toBe('no');
      await expect(runKubectl(['get', 'clusterrolebinding', `bob-cluster-admin-${tenants.suffix}`])).rejects.toThrow(/NotFound/);
    });

    it("does no more in its own namespace through InjectedIdentity than bob granted its ServiceAccount: the controller's rights are never lent", async () => {
      // edit (what bob bound) may read quotas and limit ranges but not write them; the controller could.
      const quota = `b-quota-${tenants.suffix}`;
      const limits = `b-limits-${tenants.suffix}`;
      await b.apply(
        mObject(quota, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: quota }, spec: { hard: { pods: '1000' } } }),
      );
      await b.apply(
        mObject(limits, {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: limits },
          spec: { limits: [{ type: 'Container', max: { memory: '64Gi' } }] },
        }),
      );
      for (const [name, resource] of [
        [quota, 'resourcequota'],
        [limits, 'limitrange'],
      ] as const) {
        const message = await b.refusedCondition(M_OBJECTS, name, 'Synced', /forbidden/i);
        expect(message, name).toContain(`system:serviceaccount:${b.namespace}:${INJECTED_IDENTITY_SERVICE_ACCOUNT}`);
        await expect(runKubectl(['get', resource, name, '-n', b.namespace])).rejects.toThrow(/NotFound/);
        // It made nothing, so it goes when bob deletes it.
        await b.deleteAndWait(M_OBJECTS, name);
      }
    });

    it("never runs a command that a tenant's kubeconfig names (exec)", async () => {
      const marker = execMarker();
      const kubeconfig = {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:9', 'insecure-skip-tls-verify': true } }],
        users: [
          {
            name: 'u',
            user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch', args: [marker], interactiveMode: 'Never' } },
          },
        ],
        contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      };
      await b.apply(secret('exec-kubeconfig', { kubeconfig: JSON.stringify(kubeconfig) }));
      await b.apply({
        apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { name: 'exec' },
        spec: { credentials: { source: 'Secret', secretRef: { namespace: b.namespace, name: 'exec-kubeconfig', key: 'kubeconfig' } } },
      });
      await b.apply(
        mObject(
          'b-exec',
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-exec' } },
          { providerConfigRef: { kind: 'ProviderConfig', name: 'exec' } },
        ),
      );
      try {
        const message = await b.refusedCondition(M_OBJECTS, 'b-exec', 'Synced', /./);
        expect(existsSync(marker), `the worker ran the kubeconfig's exec command (${marker} exists); Synced says: ${message}`).toBe(false);
        expect(message).toMatch(/exec/);
      } finally {
        await rm(marker, { force: true });
      }
    });
  });

  it("never uses the worker's own files that a tenant's kubeconfig names (client-certificate, client-key)", async () => {
    // The control cluster's admin certificate sits on the worker's disk (in a real cluster: the
    // service account token file). A tenant's kubeconfig naming it must not borrow it.
    const pkiDir = join(dirname(inject('kubeconfigPath')), 'pki');
    const server = (parse(await readFile(inject('kubeconfigPath'), 'utf8')) as { clusters: { cluster: { server: string } }[] }).clusters[0]!
      .cluster.server;
    const kubeconfig = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server, 'certificate-authority': join(pkiDir, 'ca.crt') } }],
      users: [{ name: 'u', user: { 'client-certificate': join(pkiDir, 'admin.crt'), 'client-key': join(pkiDir, 'admin.key') } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    };
    await b.apply(secret('files-kubeconfig', { kubeconfig: JSON.stringify(kubeconfig) }));
    await b.apply({
      apiVersion: 'kubernetes.m.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: 'files' },
      spec: { credentials: { source: 'Secret', secretRef: { namespace: b.namespace, name: 'files-kubeconfig', key: 'kubeconfig' } } },
    });
    await b.apply(
      mObject(
        'b-files',
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: `bob-files-${tenants.suffix}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
        },
        { providerConfigRef: { kind: 'ProviderConfig', name: 'files' } },
      ),
    );
    const object = await b.until(M_OBJECTS, 'b-files', 'to be refused or Ready', (o) =>
      ['True', 'False'].includes(condition(o, 'Synced')?.status ?? ''),
    );
    const synced = condition(object, 'Synced')!;
    expect(synced.status, `bob's Object used the worker's admin certificate: ${JSON.stringify(synced)}`).toBe('False');
    expect(synced.message).toMatch(/client-certificate|file/);
    await expect(runKubectl(['get', 'clusterrolebinding', `bob-files-${tenants.suffix}`])).rejects.toThrow(/NotFound/);
  });

  it("leaves team-a's objects, Secrets and external resources byte for byte as they were", async () => {
    const after = await teamAState();
    expect(after.vpc).toBe(before.vpc);
    expect(after.keyPair).toBe(before.keyPair);
    expect(after.api).toBe(before.api);
    // Nothing was written into team-a's namespace on bob's behalf, not even an Event.
    const events = await runKubectl(['get', 'events', '-n', a.namespace, '-o', 'json']);
    expect(events).not.toContain(b.namespace);
  });
});
