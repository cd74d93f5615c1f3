// The example network's dependency graph, derived the way the control plane derives it: from
// each kind's reference declarations (runtime/references/dependencies.ts), applied to the
// example's own manifests. A new reference in the example, or a new kind, needs no edit here.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { dependenciesOf, groupOf, namedTargets } from '#runtime/references/dependencies';
import { findKind } from '#providers/registry';
import { keyOfObject } from './watch-objects';

export interface NetworkObject {
  /** `Kind/name`, as bench/watch-objects.ts keys objects. */
  key: string;
  api: KindApi;
  name: string;
  /** The file in the directory that declares it. */
  file: string;
  /** Its spec.forProvider as written: what it asks of EC2 beyond the create (bench/ec2-latencies.ts). */
  forProvider?: Record<string, unknown>;
}

/** `dependent` refers to `target`, so it cannot be created before `target` is Ready. */
export interface DependencyEdge {
  target: string;
  dependent: string;
}

export interface NetworkGraph {
  objects: NetworkObject[];
  edges: DependencyEdge[];
}

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: ManagedResource['spec'];
}

/** Reads every manifest in `dir` as `kubectl apply -n <namespace> -f dir` would create it. */
export async function readNetworkGraph(dir: string, namespace: string): Promise<NetworkGraph> {
  const files = (await readdir(dir)).filter((file) => /\.ya?ml$/.test(file)).sort();
  const manifests: { manifest: Manifest; file: string }[] = [];
  for (const file of files) {
    for (const document of parseAllDocuments(await readFile(join(dir, file), 'utf8'))) {
      const manifest = document.toJS() as Manifest | null;
      if (manifest?.kind) manifests.push({ manifest, file });
    }
  }
  const objects: NetworkObject[] = [];
  const edges: DependencyEdge[] = [];
  for (const { manifest, file } of manifests) {
    // What managed resources read (the Instance's user-data Secret) is no node: it is ready once applied.
    const kind = findKind(groupOf(manifest.apiVersion), manifest.kind);
    if (!kind) continue;
    const key = keyOfObject(manifest.kind, manifest.metadata.name);
    const forProvider = manifest.spec?.forProvider as Record<string, unknown> | undefined;
    objects.push({ key, api: kind.api, name: manifest.metadata.name, file, forProvider });
    // dependenciesOf reads only the namespace and the spec; the rest of the metadata is the server's.
    const resource = { metadata: { ...manifest.metadata, namespace }, spec: manifest.spec } as Pick<ManagedResource, 'metadata' | 'spec'>;
    for (const target of namedTargets(dependenciesOf(kind, resource))) {
      if (target.namespace === namespace) edges.push({ target: keyOfObject(target.kind, target.name), dependent: key });
    }
  }
  const known = new Set(objects.map((o) => o.key));
  return { objects, edges: edges.filter((edge) => known.has(edge.target)) };
}

/**
 * The path through the graph (first target → last dependent) whose objects' weights add up to
 * the most: with create latencies as weights, the least time any control plane needs to bring
 * the whole graph up, creating each object only once what it refers to is Ready.
 */
export function heaviestChain(graph: NetworkGraph, weight: (key: string) => number): { path: string[]; total: number } {
  const targetsOf = new Map<string, string[]>();
  for (const { target, dependent } of graph.edges) targetsOf.set(dependent, [...(targetsOf.get(dependent) ?? []), target]);
  const best = new Map<string, { path: string[]; total: number }>();
  const chainEndingAt = (key: string, visiting: Set<string>): { path: string[]; total: number } => {
    const known = best.get(key);
    if (known) return known;
    if (visiting.has(key)) throw new Error(`the example's references form a cycle through ${key}`);
    visiting.add(key);
    let longest = { path: [] as string[], total: 0 };
    for (const target of targetsOf.get(key) ?? []) {
      const chain = chainEndingAt(target, visiting);
      if (chain.total > longest.total) longest = chain;
    }
    visiting.delete(key);
    const chain = { path: [...longest.path, key], total: longest.total + weight(key) };
    best.set(key, chain);
    return chain;
  };
  let heaviest = { path: [] as string[], total: 0 };
  for (const { key } of graph.objects) {
    const chain = chainEndingAt(key, new Set());
    if (chain.total > heaviest.total) heaviest = chain;
  }
  return heaviest;
}

/**
 * The objects in an order that creates each one after everything it refers to: what a user
 * applying them one at a time, each once the ones before it are Ready, would follow. Ties keep
 * the graph's (file) order.
 */
export function dependencyOrder(graph: NetworkGraph): NetworkObject[] {
  const pending = new Map(graph.objects.map((o) => [o.key, graph.edges.filter((e) => e.dependent === o.key).length]));
  const ordered: NetworkObject[] = [];
  while (ordered.length < graph.objects.length) {
    const next = graph.objects.find((o) => pending.get(o.key) === 0);
    if (!next) throw new Error(`the example's references form a cycle among ${[...pending.keys()].join(', ')}`);
    pending.delete(next.key);
    for (const { target, dependent } of graph.edges)
      if (target === next.key && pending.has(dependent)) pending.set(dependent, pending.get(dependent)! - 1);
    ordered.push(next);
  }
  return ordered;
}
