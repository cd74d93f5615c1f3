// Resolves an object's references against targets an activity has read, following seed 000:
// a reference wins over the raw value and its resolved value is written into the object, so
// forProvider is exactly what goes to the provider; a target that is missing or not Ready
// leaves the reference unresolved; errors outrank waiting, waiting outranks resolved. Pure:
// values stay in the activity and never reach workflow history.
import { EXTERNAL_NAME } from '#core/annotations';
import type { ReferencePolicy } from '#core/references/fields';
import { FieldPathError, getValue, hasPrefix, parseFieldPath, setValue, type Segment } from '#core/references/fieldpath';
import { refFieldOf, selectorFieldOf, type ReferenceDeclaration } from '#core/references/declaration';
import { describeKey, keyOf, type Dependency, type ObjectKey } from './dependencies';

/** An object as read from the API server. */
export interface KubeObject {
  metadata: {
    name: string;
    namespace?: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
  [field: string]: unknown;
}

interface ResolutionInput {
  object: KubeObject;
  dependencies: readonly Dependency[];
  /** Every named target, by keyOf; undefined when it does not exist. */
  targets: ReadonlyMap<string, KubeObject | undefined>;
  /** The candidates each selector found, in name order. */
  selected: ReadonlyMap<Dependency, readonly KubeObject[]>;
}

export interface FieldWrite {
  /** From the object's root, such as spec.forProvider.vpcId. */
  path: string;
  value: unknown;
  /** What the value came from, for the UI: "spec.forProvider.vpcId from VPC team-a/main". */
  what: string;
}

export interface Resolution {
  writes: FieldWrite[];
  /** Blocking references that are missing or not Ready yet, for the ReferencesResolved message. */
  waiting: string[];
  /** References that cannot resolve as written (seed 000's first priority). */
  errors: string[];
  /** The object with every write applied: what the provider is observed against. */
  resolved: KubeObject;
  /** Targets picked by selectors: they join the object's named targets once written. */
  selectedTargets: ObjectKey[];
}

/**
 * Where generic references may write: the spec, never metadata or status (admission refuses a
 * fromObject toFieldPath outside spec too, core/references/fields.ts). Compared as parsed paths, so
 * every spelling of a path (`["spec"].x`) is judged alike.
 */
const WRITABLE_ROOT = parseFieldPath('spec');

export function resolveReferences(input: ResolutionInput): Resolution {
  const out: Resolution = { writes: [], waiting: [], errors: [], resolved: input.object, selectedTargets: [] };
  const lists = new Map<ReferenceDeclaration, { values: unknown[]; complete: boolean }>();

  // The last write to a path wins, and only what differs from the object as read is a write:
  // two references to one field must not rewrite it on every pass.
  const pending = new Map<string, FieldWrite>();
  const write = (path: string, value: unknown, what: string) => {
    if (!sameValue(getValue(out.resolved, path), value)) out.resolved = setValue(out.resolved, path, value);
    pending.set(path, { path, value, what });
  };

  for (const dependency of input.dependencies) {
    switch (dependency.type) {
      case 'selector': {
        const candidates = (input.selected.get(dependency) ?? []).filter((c) => controllerMatches(dependency, input.object, c));
        const d = dependency.declaration;
        const described = `${selectorFieldOf(d)} ${describeSelector(dependency.selector.matchLabels)}`;
        if (candidates.length === 0) {
          if (dependency.selector.policy?.resolution !== 'Optional') out.waiting.push(`${described}: no ${dependency.kind} matches`);
          break;
        }
        if (!d.list && candidates.length > 1) {
          const names = candidates.map((c) => c.metadata.name).join(', ');
          out.errors.push(`${described} matches ${candidates.length} ${dependency.kind}s (${names}); it must select exactly one`);
          break;
        }
        const refs = candidates.map((c) => ({ name: c.metadata.name }));
        write(`spec.forProvider.${refFieldOf(d)}`, d.list ? refs : refs[0], `${refFieldOf(d)} selected by ${described}`);
        for (const c of candidates) {
          const target = { group: dependency.group, kind: dependency.kind, namespace: dependency.namespace, name: c.metadata.name };
          out.selectedTargets.push(target);
          resolveTyped(d, target, c, dependency.selector.policy);
        }
        break;
      }
      case 'ref':
        resolveTyped(dependency.declaration, dependency.target, input.targets.get(keyOf(dependency.target)), dependency.policy);
        break;
      case 'patch':
        resolvePatch(dependency, input.targets.get(keyOf(dependency.target)));
        break;
      case 'dependsOn':
        break; // non-blocking: nothing to wait for or copy
    }
  }
  for (const [d, list] of lists) if (list.complete) write(`spec.forProvider.${d.field}`, list.values, `${d.field} from ${refFieldOf(d)}`);
  out.writes = [...pending.values()].filter((w) => !sameValue(getValue(input.object, w.path), w.value));
  return out;

  function resolveTyped(d: ReferenceDeclaration, target: ObjectKey, found: KubeObject | undefined, policy: ReferencePolicy | undefined) {
    const list = d.list ? (lists.get(d) ?? lists.set(d, { values: [], complete: true }).get(d)!) : undefined;
    const path = `spec.forProvider.${d.field}`;
    const current = getValue(out.resolved, path);
    // IfNotPresent: a value already there is kept, so the target is not needed at all.
    if (!list && policy?.resolve === 'IfNotPresent' && current !== undefined && current !== '') return;
    const optional = policy?.resolution === 'Optional';
    const name = describeKey(target);
    const unresolved = (why: string) => {
      if (list) list.complete = list.complete && optional;
      if (!optional) out.waiting.push(`${name}: ${why}`);
    };
    if (!found) return unresolved('not found');
    // An id from another region names nothing here: the provider would answer only "not found".
    const regions = [regionOf(input.object), regionOf(found)];
    if (regions[0] && regions[1] && regions[0] !== regions[1]) {
      if (list) list.complete = false;
      return void out.errors.push(`reference to ${name}: it is in region ${regions[1]}, this object in ${regions[0]}`);
    }
    if (found.metadata.deletionTimestamp) return unresolved('being deleted');
    if (!isReady(found)) return unresolved('not Ready yet');
    const value = d.fromFieldPath ? safeGet(found, d.fromFieldPath) : found.metadata.annotations?.[EXTERNAL_NAME];
    if (value === undefined || value === '')
      return unresolved(d.fromFieldPath ? `${d.fromFieldPath} is not set yet` : 'has no external name yet');
    if (list) {
      list.values.push(value);
      return;
    }
    write(path, value, `${d.field} from ${name}`);
  }

  function resolvePatch(dependency: Extract<Dependency, { type: 'patch' }>, found: KubeObject | undefined) {
    const name = describeKey(dependency.target);
    let from: Segment[];
    let to: Segment[];
    try {
      from = parseFieldPath(dependency.fieldPath);
      to = parseFieldPath(dependency.toFieldPath);
    } catch (error) {
      out.errors.push(`reference to ${name}: ${error instanceof FieldPathError ? error.message : String(error)}`);
      return;
    }
    if (!hasPrefix(to, WRITABLE_ROOT)) {
      out.errors.push(`reference to ${name}: toFieldPath ${dependency.toFieldPath} must be under spec`);
      return;
    }
    if (!found) return void out.waiting.push(`${name}: not found`);
    const value = getValue(found, from);
    if (value === undefined) return void out.waiting.push(`${name}: ${dependency.fieldPath} is not set yet`);
    try {
      write(dependency.toFieldPath, value, `${dependency.toFieldPath} from ${name} ${dependency.fieldPath}`);
    } catch (error) {
      out.errors.push(
        `reference to ${name}: cannot write ${dependency.toFieldPath}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

export function isReady(object: { status?: unknown } & Record<string, unknown>): boolean {
  const conditions = (object.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

function controllerMatches(dependency: Extract<Dependency, { type: 'selector' }>, object: KubeObject, candidate: KubeObject): boolean {
  if (!dependency.selector.matchControllerRef) return true;
  const mine = controllerOf(object);
  return mine !== undefined && controllerOf(candidate) === mine;
}

const controllerOf = (o: KubeObject) => o.metadata.ownerReferences?.find((r) => r.controller)?.uid;

function describeSelector(labels: Record<string, string> | undefined): string {
  return `{${Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}}`;
}

function safeGet(object: unknown, path: string): unknown {
  try {
    return getValue(object, path);
  } catch {
    return undefined;
  }
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** spec.forProvider.region, for kinds that have one (EC2's). */
function regionOf(object: KubeObject): string | undefined {
  const region = (object as { spec?: { forProvider?: { region?: unknown } } }).spec?.forProvider?.region;
  return typeof region === 'string' && region !== '' ? region : undefined;
}
