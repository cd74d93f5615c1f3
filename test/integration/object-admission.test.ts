// The Object and ProviderConfig CRDs on a real API server: seed 002's examples and manifests in
// either provider-kubernetes version are admitted as written, and bad input is refused at
// admission with a message that says what is wrong. Only admission: `--dry-run=server` runs
// every validation and stores nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '../../stack/paths';
import { kubernetesCrds } from '../../providers/kubernetes/crds';
import { runKubectl } from './kubectl';

const examples = join(repoRoot, 'examples', 'kubernetes');

beforeAll(async () => {
  const crds = kubernetesCrds();
  await runKubectl(['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds }));
  await runKubectl(['wait', '--for=condition=Established', '--timeout=60s', ...crds.map((c) => `crd/${c.metadata.name}`)]);
});

const dryRun = (manifest: object) => runKubectl(['apply', '--dry-run=server', '-f', '-'], JSON.stringify(manifest));

const object = (apiVersion: string, spec: Record<string, unknown>) => ({
  apiVersion,
  kind: 'Object',
  metadata: { name: 'admission-check' },
  spec: { forProvider: { manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } } }, ...spec },
});

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
