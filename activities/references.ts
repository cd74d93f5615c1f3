// The I/O half of references: reads the objects a managed resource depends on, writes the
// resolved values into it, marks the objects it depends on as in use, and tells a resource
// being deleted which dependents still hold it. Decisions are pure (runtime/references/);
// values read here stay here, so only descriptions reach workflow history.
import type { ManagedKind, ResourceRef } from '../runtime/managed-kind';
import type { ManagedResource } from '../runtime/managed-resource';
import { findCycle } from '../runtime/references/cycles';
import {
  dependenciesOf,
  describeKey,
  keyOf,
  namedTargets,
  parseKey,
  type Dependency,
  type ObjectKey,
} from '../runtime/references/dependencies';
import { setValue } from '../runtime/references/fieldpath';
import { resolveReferences, type KubeObject, type Resolution } from '../runtime/references/resolution';
import { usedByAnnotation, usedByMarks, usedByValue } from '../runtime/references/used-by';
import { findKind } from '../providers/registry';
import type { ReferenceObservation } from '../workflows/observation';
import type { KubeAccess } from './kube';
import { EXTERNAL_NAME } from '../apis/annotations';

/** How far the cycle check walks; a real dependency chain is a handful of objects deep. */
const CYCLE_SEARCH_LIMIT = 64;

export interface ResolvedReferences {
  resolution: Resolution;
  /** Managed objects this one depends on that do not carry its in-use mark yet. */
  unmarked: ObjectKey[];
  observation: ReferenceObservation;
}

export class ReferenceAccess {
  /**
   * `cached` is the worker's object cache, if it has one. A managed dependency found there
   * ready for use (Ready, named, not being deleted) is taken from it; any other answer is read
   * from the API server, so a cache that lags never makes a resource wait for what is already
   * there, and its in-use mark still guards what it took.
   */
  constructor(
    private readonly kube: KubeAccess,
    private readonly cached?: (ref: ResourceRef) => ManagedResource | undefined,
  ) {}

  /** Undefined when the object refers to nothing, so objects without references cost nothing more. */
  async resolve(kind: ManagedKind, mr: ManagedResource): Promise<ResolvedReferences | undefined> {
    const dependencies = dependenciesOf(kind, mr);
    if (dependencies.length === 0) return undefined;
    const targets = new Map<string, KubeObject | undefined>();
    const selected = new Map<Dependency, KubeObject[]>();
    await Promise.all([
      ...namedTargets(dependencies).map(async (key) => targets.set(keyOf(key), await this.read(key, apiVersionFor(dependencies, key), mr))),
      ...dependencies.map(async (d) => {
        if (d.type !== 'selector') return;
        const found = await this.kube.list(d.group, d.kind, d.namespace, d.selector.matchLabels ?? {});
        selected.set(
          d,
          (found as unknown as KubeObject[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
        );
      }),
    ]);
    const resolution = resolveReferences({ object: mr as unknown as KubeObject, dependencies, targets, selected });

    const present = new Map<string, KubeObject>();
    for (const [key, found] of targets) if (found) present.set(key, found);
    for (const [d, found] of selected) for (const c of found) present.set(keyOf({ ...selectorTarget(d), name: c.metadata.name }), c);
    const mark = usedByAnnotation(mr.metadata.uid);
    const unmarked = [...present.entries()]
      .filter(([key, o]) => isManaged(key) && o.metadata.annotations?.[mark] === undefined && !o.metadata.deletionTimestamp)
      .map(([key]) => keyFromObject(key));

    // A cycle can never resolve, and its members would hold each other forever on deletion:
    // look for one whenever something is still pending or about to be marked.
    if (resolution.waiting.length > 0 || unmarked.length > 0) {
      const cycle = await this.cycleThrough(refOf(kind, mr), present);
      if (cycle) resolution.errors.push(`reference cycle: ${cycle.join(' \u2192 ')}`);
    }
    return {
      resolution,
      unmarked,
      observation: {
        waiting: resolution.waiting,
        errors: resolution.errors,
        writes: resolution.writes.map((w) => w.what),
        unmarked: unmarked.map(describeKey),
        dependsOnManaged: namedTargets(dependencies).some((k) => findKind(k.group, k.kind) !== undefined),
      },
    };
  }

  /**
   * Writes resolved values into the object and marks what it depends on. Returns what was done
   * and, when the object itself was written, the object as written (its resourceVersion is what
   * the next pass must read).
   */
  async apply(kind: ManagedKind, ref: ResourceRef, mr: ManagedResource): Promise<{ done: string[]; written?: ManagedResource }> {
    const resolved = await this.resolve(kind, mr);
    if (!resolved || resolved.resolution.errors.length > 0) return { done: [] };
    const { writes } = resolved.resolution;
    // The marks and the object's own write go out together: a dependent must hold its
    // dependencies before it is created from them, and the create is a later step.
    const mark = { [usedByAnnotation(mr.metadata.uid)]: usedByValue(refOf(kind, mr)) };
    const updated = writes.reduce((object, w) => setValue(object, w.path, w.value), mr);
    const [written] = await Promise.all([
      // Optimistic lock: a concurrent edit makes the step retry.
      writes.length > 0 ? this.kube.replace(ref, updated) : undefined,
      ...resolved.unmarked.map((target) => this.kube.patchAnnotations(target, mark)),
    ]);
    const done = [...resolved.unmarked.map((target) => `marked ${describeKey(target)} as in use`), ...writes.map((w) => `set ${w.what}`)];
    return { done, written };
  }

  /** Takes this object's mark off everything it names; run once its external resource is gone. */
  async release(kind: ManagedKind, mr: ManagedResource): Promise<string[]> {
    const mark = usedByAnnotation(mr.metadata.uid);
    const dependencies = dependenciesOf(kind, mr);
    for (const key of namedTargets(dependencies)) {
      const apiVersion = apiVersionFor(dependencies, key);
      if (!findKind(key.group, key.kind) && apiVersion) this.kube.forgetReferenced(key, apiVersion, mr.metadata.uid);
    }
    const targets = namedTargets(dependencies).filter((k) => findKind(k.group, k.kind));
    const released = await Promise.all(targets.map((t) => this.kube.patchAnnotations(t, { [mark]: null }, { ifExists: true })));
    return targets.filter((_, i) => released[i]).map((t) => `released ${describeKey(t)}`);
  }

  /**
   * Dependents that still exist and still refer to this object: its external resource must wait
   * for them. Marks whose dependent is gone, replaced or no longer refers here are stale and
   * ignored. A dependent this object itself depends on is a cycle; it does not block, or
   * neither could ever go.
   */
  async blockers(kind: ManagedKind, mr: ManagedResource): Promise<string[]> {
    const me = refOf(kind, mr);
    const mine = new Set(namedTargets(dependenciesOf(kind, mr)).map(keyOf));
    const checks = usedByMarks(mr.metadata.annotations).map(async ({ dependentUid, dependent }) => {
      const dependentKind = findKind(dependent.group, dependent.kind);
      if (!dependentKind || mine.has(keyOf(dependent))) return undefined;
      const found = await this.kube.get({ ...dependent });
      if (!found || found.metadata.uid !== dependentUid) return undefined;
      const refersHere = namedTargets(dependenciesOf(dependentKind, found)).some((t) => keyOf(t) === keyOf(me));
      return refersHere ? describeKey(dependent) : undefined;
    });
    return (await Promise.all(checks)).filter((b): b is string => b !== undefined).sort();
  }

  /** `dependent` is the object that refers to `key`; a cycle search reads without one. */
  private async read(key: ObjectKey, apiVersion: string | undefined, dependent?: ManagedResource): Promise<KubeObject | undefined> {
    const managed = findKind(key.group, key.kind);
    if (managed) {
      const cached = this.cached?.(key);
      if (cached && usable(cached)) return cached as unknown as KubeObject;
      return (await this.kube.get(key)) as unknown as KubeObject | undefined;
    }
    if (!apiVersion) return undefined;
    // Not ours, so the watcher does not see it change: KubeAccess watches it for the dependent.
    const found = dependent
      ? await this.kube.getReferenced(key, apiVersion, dependent)
      : await this.kube.getAny(apiVersion, key.kind, key.namespace, key.name);
    return found as KubeObject | undefined;
  }

  /** Walks managed dependencies outward from `start` looking for a way back. */
  private async cycleThrough(start: ObjectKey, firstHop: ReadonlyMap<string, KubeObject>): Promise<string[] | undefined> {
    const edges = new Map<string, string[]>([[keyOf(start), [...firstHop.keys()].filter(isManaged)]]);
    const queue = [...edges.get(keyOf(start))!];
    const known = new Map(firstHop);
    while (queue.length > 0 && edges.size < CYCLE_SEARCH_LIMIT) {
      const key = queue.shift()!;
      if (edges.has(key)) continue;
      const object = known.get(key) ?? (await this.read(keyFromObject(key), undefined));
      const kind = object && findKind(keyFromObject(key).group, keyFromObject(key).kind);
      const next = kind
        ? namedTargets(dependenciesOf(kind, object as unknown as ManagedResource))
            .map(keyOf)
            .filter(isManaged)
        : [];
      edges.set(key, next);
      queue.push(...next.filter((n) => !edges.has(n)));
    }
    return findCycle(keyOf(start), edges)?.map((k) => describeKey(keyFromObject(k)));
  }
}

const refOf = (kind: ManagedKind, mr: ManagedResource): ObjectKey => ({
  group: kind.api.group,
  kind: kind.api.kind,
  namespace: mr.metadata.namespace ?? '',
  name: mr.metadata.name,
});

function isManaged(key: string): boolean {
  const k = keyFromObject(key);
  return findKind(k.group, k.kind) !== undefined;
}

/** Keys here always come from keyOf, so they parse. */
const keyFromObject = (key: string): ObjectKey => parseKey(key)!;

function selectorTarget(d: Dependency): Omit<ObjectKey, 'name'> {
  if (d.type !== 'selector') throw new Error('not a selector');
  return { group: d.group, kind: d.kind, namespace: d.namespace };
}

function apiVersionFor(dependencies: readonly Dependency[], key: ObjectKey): string | undefined {
  for (const d of dependencies)
    if ((d.type === 'patch' || d.type === 'dependsOn') && keyOf(d.target) === keyOf(key)) return d.target.apiVersion;
  return undefined;
}

/** A dependency as its dependents need it: Ready, with its external name, and staying. */
function usable(mr: ManagedResource): boolean {
  const ready = mr.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return ready && mr.metadata.annotations?.[EXTERNAL_NAME] !== undefined && mr.metadata.deletionTimestamp === undefined;
}
