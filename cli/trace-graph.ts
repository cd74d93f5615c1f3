// What `chronoplane trace` shows: the object, what it uses (its references, followed to the end)
// and what uses it (its dependents, followed to the end). References come from each kind's own
// declarations (runtime/references), so the trace shows the graph the resolver, the watcher's
// wake-ups and the deletion guard act on.
import { dependenciesOf, keyOf, type ObjectKey } from '#runtime/references/dependencies';
import { apiVersionOf, isClusterScoped, workflowIdFor, type ManagedKind } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import type { TracedObject } from './cluster';

export type Relation = 'root' | 'uses' | 'used by';

export interface TraceNode {
  relation: Relation;
  key: ObjectKey;
  apiVersion: string;
  /** False when a reference names an object that does not exist. */
  found: boolean;
  synced: string;
  ready: string;
  /** Ready's reason when all is well; else the reason and message of what is not. */
  status: string;
  /** For managed objects: the id of the workflow that reconciles it. */
  workflowId?: string;
  children: TraceNode[];
}

export interface TraceSource {
  read(apiVersion: string, kind: string, namespace: string, name: string): Promise<TracedObject | undefined>;
  list(kind: ManagedKind, namespace: string): Promise<TracedObject[]>;
}

export async function buildTrace(
  root: { kind: ManagedKind; object: TracedObject },
  source: TraceSource,
  kinds: readonly ManagedKind[],
): Promise<TraceNode> {
  const namespace = root.object.metadata.namespace ?? '';
  const dependents = await dependentsIndex(source, kinds, namespace);
  const node = nodeFor('root', root.object, kinds);
  const path = new Set([keyOf(node.key)]);
  node.children = [...(await referencesOf(root.object, source, kinds, path)), ...dependentsOf(node.key, dependents, kinds, path)];
  return node;
}

/** What each object is used by, among the managed objects of the namespace and the cluster-scoped ones. */
async function dependentsIndex(
  source: TraceSource,
  kinds: readonly ManagedKind[],
  namespace: string,
): Promise<Map<string, TracedObject[]>> {
  const lists = await Promise.all(kinds.map((kind) => source.list(kind, isClusterScoped(kind.api) ? '' : namespace)));
  const index = new Map<string, TracedObject[]>();
  for (const object of lists.flat()) {
    const kind = kindOfObject(object, kinds);
    if (!kind) continue;
    for (const target of targetsOf(kind, object, kinds)) {
      const key = keyOf(target.key);
      index.set(key, [...(index.get(key) ?? []), object]);
    }
  }
  return index;
}

async function referencesOf(
  object: TracedObject,
  source: TraceSource,
  kinds: readonly ManagedKind[],
  path: Set<string>,
): Promise<TraceNode[]> {
  const kind = kindOfObject(object, kinds);
  if (!kind) return [];
  const nodes: TraceNode[] = [];
  for (const target of targetsOf(kind, object, kinds)) {
    const key = keyOf(target.key);
    if (path.has(key)) continue; // a cycle: resolution reports it on the object itself
    const found = await source.read(target.apiVersion, target.key.kind, target.key.namespace, target.key.name);
    if (!found) {
      nodes.push(missingNode(target.key, target.apiVersion, kinds));
      continue;
    }
    const node = nodeFor('uses', found, kinds);
    node.children = await referencesOf(found, source, kinds, new Set([...path, key]));
    nodes.push(node);
  }
  return nodes;
}

function dependentsOf(key: ObjectKey, index: Map<string, TracedObject[]>, kinds: readonly ManagedKind[], path: Set<string>): TraceNode[] {
  const nodes: TraceNode[] = [];
  for (const dependent of index.get(keyOf(key)) ?? []) {
    const node = nodeFor('used by', dependent, kinds);
    const dependentKey = keyOf(node.key);
    if (path.has(dependentKey)) continue;
    node.children = dependentsOf(node.key, index, kinds, new Set([...path, dependentKey]));
    nodes.push(node);
  }
  return nodes;
}

/** The objects an object names (selectors name none until they have selected), once each. */
function targetsOf(kind: ManagedKind, object: TracedObject, all: readonly ManagedKind[]): { key: ObjectKey; apiVersion: string }[] {
  const targets = new Map<string, { key: ObjectKey; apiVersion: string }>();
  for (const d of dependenciesOf(kind, object as Pick<ManagedResource, 'metadata' | 'spec'>)) {
    if (d.type === 'selector') continue;
    const { group, kind: targetKind, namespace, name } = d.target;
    // Typed references name a managed kind; generic ones carry their apiVersion.
    const apiVersion = 'apiVersion' in d.target ? d.target.apiVersion : apiVersionOfManaged(group, targetKind, all);
    targets.set(keyOf(d.target), { key: { group, kind: targetKind, namespace, name }, apiVersion });
  }
  return [...targets.values()];
}

function apiVersionOfManaged(group: string, kind: string, all: readonly ManagedKind[]): string {
  const found = all.find((k) => k.api.group === group && k.api.kind === kind);
  return found ? apiVersionOf(found.api) : `${group}/v1`;
}

function kindOfObject(object: TracedObject, all: readonly ManagedKind[]): ManagedKind | undefined {
  const group = groupOfApiVersion(object.apiVersion);
  return all.find((k) => k.api.group === group && k.api.kind === object.kind);
}

function nodeFor(relation: Relation, object: TracedObject, all: readonly ManagedKind[]): TraceNode {
  const kind = kindOfObject(object, all);
  const key: ObjectKey = {
    group: groupOfApiVersion(object.apiVersion),
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  };
  return {
    relation,
    key,
    apiVersion: object.apiVersion,
    found: true,
    ...conditionSummary(object, kind !== undefined),
    ...(kind ? { workflowId: workflowIdFor(key) } : {}),
    children: [],
  };
}

function missingNode(key: ObjectKey, apiVersion: string, all: readonly ManagedKind[]): TraceNode {
  const managed = all.some((k) => k.api.group === key.group && k.api.kind === key.kind);
  return {
    relation: 'uses',
    key,
    apiVersion,
    found: false,
    synced: '-',
    ready: '-',
    status: 'NotFound: no such object',
    ...(managed ? { workflowId: workflowIdFor(key) } : {}),
    children: [],
  };
}

/**
 * SYNCED, READY and STATUS as `crossplane resource trace` shows them: the reason (and message)
 * of the first condition that is not True, Synced before Ready, or Ready's reason when both are.
 */
export function conditionSummary(object: Pick<TracedObject, 'status'>, managed: boolean): Pick<TraceNode, 'synced' | 'ready' | 'status'> {
  if (!managed) return { synced: '-', ready: '-', status: '' };
  const conditions = object.status?.conditions ?? [];
  const find = (type: string) => conditions.find((c) => c.type === type);
  const synced = find('Synced');
  const ready = find('Ready');
  const notTrue = [synced, ready].find((c) => c !== undefined && c.status !== 'True');
  const status = notTrue
    ? `${notTrue.reason ?? notTrue.type}${notTrue.message ? `: ${notTrue.message}` : ''}`
    : (ready?.reason ?? (conditions.length === 0 ? 'no conditions yet' : ''));
  return { synced: synced?.status ?? 'Unknown', ready: ready?.status ?? 'Unknown', status };
}

function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
