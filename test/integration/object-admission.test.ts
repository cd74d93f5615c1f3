// The Object and ProviderConfig CRDs on a real API server: seed 002's examples and manifests in
// either provider-kubernetes version are admitted as written, and bad input is refused at
// admission with a message that says what is wrong. Only admission: `--dry-run=server` runs
// every validation and stores nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '#stack/paths';
import { kubernetesCrds } from '#providers/kubernetes/crds';
import { runKubectl } from './kubectl';

const examples = join(repoRoot, 'examples', 'kubernetes');

beforeAll(async () => {
  const crds = kubernetesCrds();
  await runKubectl(['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }));
  await runKubectl(['wait', '--for=condition=Established', '--timeout=60s', ...crds.map((c) => `crd/${c.metadata.name}`)]);
});

type Manifest = { apiVersion?: string; kind?: string; metadata?: Record<string, unknown>; [field: string]: unknown };

const dryRun = (manifest: object) => runKubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(manifest));
/** An update as written, fields left out included (apply would keep what it never set). */
const dryRunReplace = (manifest: object) => runKubectl(['replace', '--dry-run=server', '-f', '-'], JSON.stringify(manifest));

const object = (apiVersion: string, spec: Record<string, unknown>) => ({
  apiVersion,
  kind: 'Object',
  metadata: { name: 'admission-check' },
  spec: { forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } } as Manifest }, ...spec },
});

const M_GROUP = 'kubernetes.m.crossplane.io/v1alpha1';
const suffix = randomBytes(3).toString('hex');

/** An Object of either group: the namespaced one in namespace default. */
const inGroup = (apiVersion: string, spec: Record<string, unknown>, name = 'admission-check') => {
  const found = object(apiVersion, spec);
  return { ...found, metadata: apiVersion === M_GROUP ? { name, namespace: 'default' } : { name } };
};

describe('Object admission', () => {
  it("admits seed 002's examples as written", async () => {
    for (const file of ['namespace.yaml', 'csv-kong-observe-delete.yaml', 'csv-kong-with-reference.yaml']) {
      expect(await runKubectl(['apply', '--dry-run=server', '-f', join(examples, file)])).toMatch(/created \(server dry run\)/);
    }
  });

  it('admits either policy form in either version, and refuses both in one object', async () => {
    for (const version of ['v1alpha1', 'v1alpha2']) {
      await dryRun(object(`kubernetes.crossplane.io/${version}`, { managementPolicy: 'Observe' }));
      await dryRun(object(`kubernetes.crossplane.io/${version}`, { managementPolicies: ['Observe', 'Delete'] }));
    }
    await expect(
      dryRun(object('kubernetes.crossplane.io/v1alpha2', { managementPolicy: 'Observe', managementPolicies: ['*'] })),
    ).rejects.toThrow(/use managementPolicy \(v1alpha1\) or managementPolicies \(v1alpha2\), not both/);
  });

  it('refuses a manifest without a kind, or without an apiVersion', async () => {
    const withoutKind = object('kubernetes.crossplane.io/v1alpha2', {});
    withoutKind.spec.forProvider.manifest = { apiVersion: 'v1', metadata: { namespace: 'default' } } as never;
    await expect(dryRun(withoutKind)).rejects.toThrow(/manifest\.kind: Required value/);
    const withoutApiVersion = object('kubernetes.crossplane.io/v1alpha1', {});
    withoutApiVersion.spec.forProvider.manifest = { kind: 'ConfigMap', metadata: { namespace: 'default' } } as never;
    await expect(dryRun(withoutApiVersion)).rejects.toThrow(/manifest\.apiVersion: Required value/);
  });

  it('fills in a dependsOn as an Object of kubernetes.crossplane.io/v1alpha1, as upstream does', async () => {
    const admitted = JSON.parse(
      await runKubectl(
        ['apply', '--dry-run=server', '-o', 'json', '-f', '-'],
        JSON.stringify(object('kubernetes.crossplane.io/v1alpha2', { references: [{ dependsOn: { name: 'other' } }] })),
      ),
    ) as { spec: { references: { dependsOn: Record<string, string> }[] } };
    expect(admitted.spec.references[0]!.dependsOn).toEqual({
      apiVersion: 'kubernetes.crossplane.io/v1alpha1',
      kind: 'Object',
      name: 'other',
    });
  });

  it('refuses a connection detail without a fieldPath, and one ending in an index without a Secret key, in both groups', async () => {
    const detail = { apiVersion: 'v1', kind: 'Secret', name: 's', namespace: 'default' };
    for (const apiVersion of ['kubernetes.crossplane.io/v1alpha1', 'kubernetes.crossplane.io/v1alpha2', M_GROUP]) {
      const withDetails = (...connectionDetails: object[]) => inGroup(apiVersion, { connectionDetails });
      await expect(dryRun(withDetails({ ...detail, toConnectionSecretKey: 'password' }))).rejects.toThrow(
        /connectionDetails\[0\]\.fieldPath: Required value/,
      );
      await expect(dryRun(withDetails({ ...detail, fieldPath: '' }))).rejects.toThrow(/connectionDetails\[0\]\.fieldPath: Invalid value/);
      await expect(dryRun(withDetails({ ...detail, fieldPath: 'spec.ports[0]' }))).rejects.toThrow(
        /toConnectionSecretKey is required when fieldPath ends in an index/,
      );
      // A key in brackets names a Secret key; an index with toConnectionSecretKey is fine.
      await dryRun(
        withDetails({ ...detail, fieldPath: 'data[tls.crt]' }, { ...detail, fieldPath: 'spec.ports[0]', toConnectionSecretKey: 'port' }),
      );
    }
  });

  it('refuses DeriveFromCelQuery without a celQuery, in both groups', async () => {
    for (const apiVersion of ['kubernetes.crossplane.io/v1alpha2', M_GROUP]) {
      await expect(dryRun(inGroup(apiVersion, { readiness: { policy: 'DeriveFromCelQuery' } }))).rejects.toThrow(
        /celQuery must be set if policy is DeriveFromCelQuery/,
      );
      await expect(dryRun(inGroup(apiVersion, { readiness: { policy: 'DeriveFromCelQuery', celQuery: '' } }))).rejects.toThrow(
        /celQuery must be set if policy is DeriveFromCelQuery/,
      );
    }
  });

  it('refuses a change of the manifest’s apiVersion, kind, name or namespace, in both groups, and takes any other change', async () => {
    for (const apiVersion of ['kubernetes.crossplane.io/v1alpha2', M_GROUP]) {
      const stored = inGroup(apiVersion, {}, `rename-${apiVersion.split('.')[1]}-${suffix}`);
      stored.spec.forProvider.manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target', namespace: 'default' } };
      await runKubectl(['create', '-f', '-'], JSON.stringify(stored));
      try {
        const changed = (manifest: Record<string, unknown>) =>
          dryRunReplace({ ...stored, spec: { ...stored.spec, forProvider: { manifest } } });
        const refusal = (field: string) =>
          new RegExp(`spec.forProvider.manifest.${field} cannot be changed: .*left behind, unmanaged; delete and recreate the Object`);
        const metadata = { name: 'target', namespace: 'default' };
        await expect(changed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...metadata, name: 'other' } })).rejects.toThrow(
          refusal('metadata.name'),
        );
        await expect(changed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...metadata, namespace: 'other' } })).rejects.toThrow(
          refusal('metadata.namespace'),
        );
        await expect(changed({ apiVersion: 'v1', kind: 'Secret', metadata })).rejects.toThrow(refusal('kind'));
        await expect(changed({ apiVersion: 'example.com/v1', kind: 'ConfigMap', metadata })).rejects.toThrow(refusal('apiVersion'));
        // Removing the name (or namespace) names another object: the Object's own name (or default).
        await expect(changed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } })).rejects.toThrow(
          refusal('metadata.name'),
        );
        await expect(changed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' } })).rejects.toThrow(
          refusal('metadata.namespace'),
        );
        await expect(changed({ apiVersion: 'v1', kind: 'ConfigMap' })).rejects.toThrow(refusal('metadata.name'));
        // Anything else may change: data, labels, annotations.
        await changed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...metadata, labels: { a: 'b' } }, data: { k: 'v' } });
      } finally {
        await runKubectl(['delete', '-f', '-', '--wait=false'], JSON.stringify(stored));
      }
    }
  });

  it('takes a name added where none was, as a reference fills it in before the target is made', async () => {
    const stored = inGroup('kubernetes.crossplane.io/v1alpha2', {}, `unnamed-${suffix}`);
    await runKubectl(['create', '-f', '-'], JSON.stringify(stored));
    try {
      const manifest = stored.spec.forProvider.manifest;
      await dryRunReplace({
        ...stored,
        spec: { forProvider: { manifest: { ...manifest, metadata: { ...manifest.metadata, name: 'from-a-reference' } } } },
      });
    } finally {
      await runKubectl(['delete', '-f', '-', '--wait=false'], JSON.stringify(stored));
    }
  });

  it('refuses a ProviderConfig source Chronoplane cannot use, and a Secret source without its Secret', async () => {
    const config = (credentials: object) => ({
      apiVersion: 'kubernetes.crossplane.io/v1alpha1',
      kind: 'ProviderConfig',
      metadata: { name: 'admission-check' },
      spec: { credentials },
    });
    await dryRun(config({ source: 'InjectedIdentity' }));
    await dryRun(config({ source: 'Secret', secretRef: { namespace: 'crossplane-system', name: 'cluster-config', key: 'kubeconfig' } }));
    await expect(dryRun(config({ source: 'Filesystem' }))).rejects.toThrow(
      /reads credentials from a Secret \(a kubeconfig\) or uses InjectedIdentity/,
    );
    await expect(dryRun(config({ source: 'Secret' }))).rejects.toThrow(/secretRef is required when source is Secret/);
  });
});

/** provider-kubernetes v1.2.1's own example directory, from the Go module proxy (cached by Go). */
async function upstreamExamples(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pk-module-'));
  const go = promisify(execFile);
  await go('go', ['mod', 'init', 'examples'], { cwd: dir });
  const { stdout } = await go('go', ['mod', 'download', '-json', 'github.com/crossplane-contrib/provider-kubernetes@v1.2.1'], {
    cwd: dir,
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  return join((JSON.parse(stdout) as { Dir: string }).Dir, 'examples', 'cluster', 'object');
}

async function yamlFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((f) => f.endsWith('.yaml')).map((f) => join(dir, f));
}

describe("provider-kubernetes v1.2.1's own Object examples", () => {
  it('are admitted as written, in both versions', async () => {
    const files = await yamlFilesUnder(await upstreamExamples());
    const objects = (await Promise.all(files.map(async (f) => parseAllDocuments(await readFile(f, 'utf8')).map((d) => d.toJS()))))
      .flat()
      .filter((o: { kind?: string } | null) => o?.kind === 'Object');
    expect(objects.length).toBeGreaterThanOrEqual(15);
    const versions = new Set(objects.map((o: { apiVersion: string }) => o.apiVersion));
    expect([...versions].sort()).toEqual(['kubernetes.crossplane.io/v1alpha1', 'kubernetes.crossplane.io/v1alpha2']);
    for (const o of objects) await dryRun(o);
  }, 120_000);
});
