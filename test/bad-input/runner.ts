// The corpus runner's model of the cases: each case's manifests made ready to apply (its
// namespace filled in, the namespace placeholder replaced), the objects they make, and the
// rules a case must follow so that what it leaves behind can be traced to it.
import { findKind } from '#providers/registry';
import { CORPUS_NAMESPACE, isRefused, type BadInputCase, type ExplainedInCondition, type Manifest } from './case';
import { Discovery, describeId, groupOf, keyOf, type ApiResource, type ObjectId, type StoredCondition } from './cluster';

/** A manifest ready to apply, with the object it makes. */
export interface Placed {
  manifest: Manifest;
  id: ObjectId;
  /** Undefined when the API server does not serve the kind (a case may misspell it on purpose). */
  resource?: ApiResource;
  /** A kind the worker reconciles (providers/registry.ts): it has a workflow and conditions. */
  managed: boolean;
}

export interface PreparedCase {
  case: BadInputCase;
  setup: Placed[];
  apply: Placed[];
  /** The object the outcome is about: the last of `apply`. */
  subject: Placed;
  readyFirst: Placed[];
  deleteFirst: Placed[];
}

/** Replaces the placeholder in every string of a value. */
function withNamespace<T>(value: T, namespace: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(CORPUS_NAMESPACE, namespace)) as T;
}

/** A case's expected message with the real namespace in place of the placeholder. */
export function expectedMessage(pattern: RegExp, namespace: string): RegExp {
  return new RegExp(pattern.source.replaceAll(CORPUS_NAMESPACE, namespace), pattern.flags);
}

function place(manifest: Manifest, namespace: string, discovery: Discovery): Placed {
  const resource = discovery.resourceOf(manifest);
  const filled = withNamespace(manifest, namespace);
  // A namespaced object goes in the corpus namespace unless it names another (kubectl's -n
  // would refuse a List whose items name different namespaces, so each item carries its own).
  const objectNamespace = resource?.namespaced === false ? '' : ((filled.metadata.namespace as string | undefined) ?? namespace);
  if (objectNamespace) filled.metadata = { ...filled.metadata, namespace: objectNamespace };
  const group = groupOf(manifest.apiVersion);
  return {
    manifest: filled,
    id: { group, kind: manifest.kind, namespace: objectNamespace, name: filled.metadata.name },
    resource,
    managed: findKind(group, manifest.kind) !== undefined,
  };
}

export function prepare(c: BadInputCase, namespace: string, discovery: Discovery): PreparedCase {
  const setup = (c.setup ?? []).map((m) => place(m, namespace, discovery));
  const apply = c.apply.map((m) => place(m, namespace, discovery));
  const own = [...setup, ...apply];
  // `kind` as kubectl names it: matched against the case's own objects of that name.
  const find = (entry: { kind: string; name: string }, among: Placed[], what: string): Placed => {
    const found = among.find((p) => p.id.name === entry.name && p.resource && Discovery.names(p.resource, entry.kind));
    if (!found) throw new Error(`case ${c.name}: ${what} names ${entry.kind} ${entry.name}, which the case does not apply`);
    return found;
  };
  return {
    case: c,
    setup,
    apply,
    subject: apply[apply.length - 1]!,
    readyFirst: (c.readyFirst ?? []).map((e) => find(e, setup, 'readyFirst')),
    deleteFirst: (c.deletion?.first ?? []).map((e) => find(e, own, 'deletion.first')),
  };
}

/**
 * What the corpus itself must hold before anything runs; each entry is a broken rule, naming
 * the case. Names are unique and no name is the start of another's, and every object a case
 * applies is named after it; a condition case's subject is a reconciled kind.
 */
export function corpusProblems(cases: readonly BadInputCase[]): string[] {
  const problems: string[] = [];
  const names = cases.map((c) => c.name);
  for (const [i, name] of names.entries()) {
    if (names.indexOf(name) !== i) problems.push(`case name ${name} is used more than once`);
    const longer = names.find((other) => other !== name && other.startsWith(name));
    if (longer) problems.push(`case name ${name} starts case name ${longer}: their objects could not be told apart`);
  }
  for (const c of cases) {
    if (c.apply.length === 0) problems.push(`case ${c.name} applies nothing`);
    for (const m of [...(c.setup ?? []), ...c.apply]) {
      if (!m.metadata.name.startsWith(c.name)) problems.push(`case ${c.name}: ${m.kind} ${m.metadata.name} is not named after the case`);
    }
    const subject = c.apply[c.apply.length - 1];
    if (subject && !isRefused(c.expect) && !findKind(groupOf(subject.apiVersion), subject.kind)) {
      problems.push(`case ${c.name}: a condition is expected of ${subject.kind}, which no worker reconciles`);
    }
  }
  return problems;
}

/** Whether a stored object's conditions show the expected one. */
export function shows(expected: ExplainedInCondition['condition'], message: RegExp, conditions: readonly StoredCondition[] | undefined) {
  const found = conditions?.find((c) => c.type === expected.type);
  return (
    found !== undefined &&
    found.status === expected.status &&
    (expected.reason === undefined || found.reason === expected.reason) &&
    message.test(found.message ?? '')
  );
}

/** Every distinct object the cases apply, each once (an edit applies one twice), in first-applied order. */
export function distinctObjects(cases: readonly PreparedCase[]): Placed[] {
  const seen = new Map<string, Placed>();
  for (const c of cases) for (const p of [...c.setup, ...c.apply]) if (!seen.has(keyOf(p.id))) seen.set(keyOf(p.id), p);
  return [...seen.values()];
}

export const describePlaced = (p: Placed): string => describeId(p.id);
