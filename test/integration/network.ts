// Helpers for tests that apply the example AWS network: its files, a ProviderConfig of the
// test's own (so that EC2 calls can be counted per test file, by access key), and what is left
// at the EC2 endpoint afterwards.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Tag } from '@aws-sdk/client-ec2';
import { readEc2CallCounts, summarizeEc2Calls, type Ec2CallCount, type Ec2CallSummary } from '#bench/ec2-call-counter';
import { ec2KindFixtures } from '#test/kind-fixtures';
import type { ControlPlane } from './harness';
import { runKubectl } from './kubectl';

export const NETWORK_DIR = join(import.meta.dirname, '..', '..', 'examples', 'aws-network');

export interface Manifest {
  kind: string;
  metadata: { name: string; [k: string]: unknown };
  spec: { forProvider: Record<string, unknown>; providerConfigRef?: { kind: string; name: string }; [k: string]: unknown };
  [k: string]: unknown;
}

export async function networkFiles(): Promise<string[]> {
  return (await readdir(NETWORK_DIR)).filter((f) => f.endsWith('.yaml')).sort();
}

export async function readManifests(file: string): Promise<Manifest[]> {
  return parseAllDocuments(await readFile(join(NETWORK_DIR, file), 'utf8')).map((d) => d.toJS() as Manifest);
}

/** Every manifest of the example, in file order: the managed resources and the Secret they read. */
export async function networkManifests(): Promise<Manifest[]> {
  return (await Promise.all((await networkFiles()).map(readManifests))).flat();
}

/** The managed resources among them: the ones with a spec.forProvider, which become Ready. */
export function managedOnly(manifests: readonly Manifest[]): Manifest[] {
  return manifests.filter((m) => m.spec?.forProvider !== undefined);
}

/** The manifests with each managed resource signing with the namespaced ProviderConfig `providerConfig`; the rest as they are. */
export function withProviderConfig(manifests: readonly Manifest[], providerConfig: string): Manifest[] {
  return manifests.map((m) =>
    m.spec?.forProvider === undefined ? m : { ...m, spec: { ...m.spec, providerConfigRef: ownProviderConfigRef(providerConfig) } },
  );
}

/** How a managed resource of the test's namespace names the ProviderConfig `useOwnProviderConfig` made. */
export const ownProviderConfigRef = (name: string) => ({ kind: 'ProviderConfig', name });

/**
 * A ProviderConfig in the test's namespace, named after it, whose access key is that name too,
 * so that moto's request counts (bench/ec2-call-counter.ts) tell this file's calls apart.
 * `endpoint` stands in for the shared EC2 endpoint, for a test that puts something in front of it.
 */
export async function useOwnProviderConfig(plane: ControlPlane, { endpoint = plane.ec2Endpoint } = {}): Promise<string> {
  const name = plane.namespace;
  const credentials = `[default]\naws_access_key_id = ${name}\naws_secret_access_key = testing\n`;
  await runKubectl(
    ['apply', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: plane.namespace, name: 'aws' }, stringData: { credentials } },
        {
          apiVersion: 'aws.chronoplane.io/v1alpha1',
          kind: 'ProviderConfig',
          metadata: { namespace: plane.namespace, name },
          spec: {
            credentials: { source: 'Secret', secretRef: { namespace: plane.namespace, name: 'aws', key: 'credentials' } },
            endpoint: { url: endpoint },
          },
        },
      ],
    }),
  );
  return name;
}

export async function ec2Calls(plane: ControlPlane, since: Ec2CallCount[]): Promise<Ec2CallSummary> {
  return summarizeEc2Calls(since, await readEc2CallCounts(plane.ec2Endpoint), { accessKeyId: plane.namespace });
}

/**
 * EC2 resources tagged as belonging to objects in the test's namespace, by kind (`VPC`,
 * `NATGateway`), for every registered kind EC2 tags (test/kind-fixtures.ts), leaving out what
 * EC2 still lists once it is gone. The tag is checked here too: moto ignores tag filters for
 * some types (NAT gateways).
 */
export async function leftovers(plane: ControlPlane): Promise<Record<string, string[]>> {
  const filters = [{ Name: 'tag:crossplane-namespace', Values: [plane.namespace] }];
  const ours = (tags: Tag[] | undefined) => tags?.some((t) => t.Key === 'crossplane-namespace' && t.Value === plane.namespace) ?? false;
  const found = await Promise.all(
    (await ec2KindFixtures()).map(async ({ kind, tagged }) => {
      const ids = tagged ? (await tagged(plane.ec2, filters)).filter((r) => ours(r.tags)).map((r) => r.id) : [];
      return [kind.api.kind, ids] as const;
    }),
  );
  return Object.fromEntries(found.filter(([, ids]) => ids.length > 0));
}

/** Every object of the test's namespace that is listed in `kubectl get managed`. */
export async function managedObjects(plane: ControlPlane): Promise<string[]> {
  const out = await plane.kubectl(['get', 'managed', '-o', 'name']);
  return out.split('\n').filter(Boolean);
}
