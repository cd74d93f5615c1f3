// The I/O half of references: reads the objects a managed resource depends on, writes the
// resolved values into it, marks the objects it depends on as in use, and tells a resource
// being deleted which dependents still hold it. Decisions are pure (runtime/references/);
// values read here stay here, so only descriptions reach workflow history.
import type { ManagedKind, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { findCycle } from '#runtime/references/cycles';
import {
  dependenciesOf,
  describeKey,
  keyOf,
  namedTargets,
  parseKey,
  type Dependency,
  type ObjectKey,
} from '#runtime/references/dependencies';
import { setValue } from '#core/references/fieldpath';
import { resolveReferences, type KubeObject, type Resolution } from '#runtime/references/resolution';
import { usedByAnnotation, usedByMarks, usedByValue } from '#runtime/references/used-by';
import { withinNamespace } from '#runtime/references/boundaries';
import { refusedWriteMessage } from '#runtime/references/strict-writes';
import {
  REFERRED_OBJECTS,
  referredFinalizer,
  referredObjects,
  referredObjectsValue,
  type ReferredObject,
} from '#runtime/references/referred';
import { ClassifiedError } from '#core/errors';
import { findKind } from '#providers/registry';
import { unservedKind } from './served-kinds';
import type { ReferenceObservation } from '#contract/observation';
import { isStatus } from './kube/api-errors';
import type { KubeAccess } from './kube';
import { EXTERNAL_NAME } from '#core/annotations';

/** How far the cycle check walks; a real dependency chain is a handful of objects deep. */
const CYCLE_SEARCH_LIMIT = 64;

interface ResolvedReferences {
  resolution: Resolution;
  /** Managed objects this one depends on that do not carry its in-use mark yet. */
  unmarked: ObjectKey[];
  /** An Object's other targets (a ConfigMap) that do not carry its referred-by finalizer yet. */
  unguarded: ReferredObject[];
  /** Objects that carry an Object's finalizer but that it no longer refers to. */
  stale: ReferredObject[];
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
  async resolve(kind: ManagedKind, mr: ManagedResource, options: { verifyWrites?: boolean } = {}): Promise<ResolvedReferences | undefined> {
    const boundary = withinNamespace(mr.metadata.namespace ?? '', dependenciesOf(kind, mr));
    const dependencies = boundary.inside;
    const recorded = guardsReferred(kind) ? referredObjects(mr.metadata.annotations) : [];
    if (dependencies.length === 0 && boundary.errors.length === 0 && recorded.length === 0) return undefined;
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
    // Never read: a reference into another namespace is an error, whatever it names there.
    resolution.errors.unshift(...boundary.errors);
    // A kind our own groups do not serve never will: an error, where it would wait for ever.
    resolution.errors.push(...namedTargets(dependencies).flatMap((key) => unservedKind(key) ?? []));

    const present = new Map<string, KubeObject>();
    for (const [key, found] of targets) if (found) present.set(key, found);
    for (const [d, found] of selected) for (const c of found) present.set(keyOf({ ...selectorTarget(d), name: c.metadata.name }), c);
    const mark = usedByAnnotation(mr.metadata.uid);
    const unmarked = [...present.entries()]
      .filter(([key, o]) => isManaged(key) && o.metadata.annotations?.[mark] === undefined && !o.metadata.deletionTimestamp)
      .map(([key]) => keyFromObject(key));

    const { unguarded, stale } = guardsReferred(kind) ? referredChanges(mr, dependencies, present, recorded) : NO_REFERRED;

    // A cycle can never resolve, and its members would hold each other forever on deletion:
    // look for one whenever something is still pending or about to be marked.
    if (resolution.waiting.length > 0 || unmarked.length > 0) {
      const cycle = await this.cycleThrough(refOf(kind, mr), present);
      if (cycle) resolution.errors.push(`reference cycle: ${cycle.join(' \u2192 ')}`);
    }
    if (options.verifyWrites && resolution.writes.length > 0 && resolution.errors.length === 0) {
      const refused = await this.refusedWrite(kind, mr, resolution);
      if (refused) resolution.errors.push(refused);
    }
    return {
      resolution,
      unmarked,
      unguarded,
      stale,
      observation: {
        waiting: resolution.waiting,
        errors: resolution.errors,
        writes: resolution.writes.map((w) => w.what),
        unmarked: [...unmarked, ...unguarded].map(describeKey),
        ...(stale.length > 0 ? { released: stale.map(describeKey) } : {}),
        dependsOnManaged: this.holdsMarks(kind, mr),
      },
    };
  }

  /**
   * Whether the object has anything of its own on other objects to take off when it goes: an
   * in-use mark on a managed object, or an Object's finalizer on another kind.
   */
  holdsMarks(kind: ManagedKind, mr: ManagedResource): boolean {
    const targets = namedTargets(this.dependenciesOf(kind, mr));
    if (targets.some((k) => findKind(k.group, k.kind) !== undefined)) return true;
    return guardsReferred(kind) && (targets.length > 0 || referredObjects(mr.metadata.annotations).length > 0);
  }

  /**
   * Asks the API server (a dry run) whether it would take the resolved values: a toFieldPath
   * the kind has no field for is refused by strict field validation, where it would otherwise be
   * pruned without a word. The message names the path; undefined when the write would go through.
   */
  private async refusedWrite(kind: ManagedKind, mr: ManagedResource, resolution: Resolution): Promise<string | undefined> {
    const updated = resolution.writes.reduce((object, w) => setValue(object, w.path, w.value), mr);
    try {
      await this.kube.replace(refOf(kind, mr), updated, { dryRun: true });
      return undefined;
    } catch (error) {
      // 409: the object changed since it was read; the next pass asks again.
      if (!isStatus(error, 400) && !isStatus(error, 422)) return undefined;
      return refusedWriteMessage(
        kind.api.kind,
        resolution.writes.map((w) => w.path),
        apiMessage(error),
      );
    }
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
    const { unguarded, stale } = resolved;
    const finalizer = referredFinalizer(mr.metadata.uid);
    // An Object's record of the objects carrying its finalizer always covers them: finalizers
    // come off before the record lets go of them, and go on only after it holds them.
    const released = await Promise.all(stale.map((t) => this.kube.setFinalizer(t.apiVersion, t, finalizer, false)));
    const recorded = referredObjects(mr.metadata.annotations);
    const record = referredObjectsValue([...recorded.filter((r) => !stale.some((s) => keyOf(s) === keyOf(r))), ...unguarded]);
    const recordChanged = guardsReferred(kind) && record !== (mr.metadata.annotations?.[REFERRED_OBJECTS] ?? null);
    let updated = writes.reduce((object, w) => setValue(object, w.path, w.value), mr);
    if (recordChanged) updated = withAnnotation(updated, REFERRED_OBJECTS, record);
    // Optimistic lock: a concurrent edit makes the step retry.
    const written = await this.writeResolved(kind, ref, mr, updated, writes.length > 0, recordChanged ? record : undefined);
    // The marks and the object's own write go out before the create, a later step: a dependent
    // must hold its dependencies before it is created from them.
    const mark = { [usedByAnnotation(mr.metadata.uid)]: usedByValue(refOf(kind, mr)) };
    await Promise.all([
      ...resolved.unmarked.map((target) => this.kube.patchAnnotations(target, mark)),
      ...unguarded.map((target) => this.kube.setFinalizer(target.apiVersion, target, finalizer, true)),
    ]);
    const done = [
      ...resolved.unmarked.map((target) => `marked ${describeKey(target)} as in use`),
      ...unguarded.map((target) => `added finalizer ${finalizer} to ${describeKey(target)}`),
      ...stale.filter((_, i) => released[i]).map((target) => `removed finalizer ${finalizer} from ${describeKey(target)}`),
      ...writes.map((w) => `set ${w.what}`),
    ];
    return { done, written };
  }

  /** The object's own write: the resolved values (a strict replace), or only the Object's record. */
  private async writeResolved(
    kind: ManagedKind,
    ref: ResourceRef,
    mr: ManagedResource,
    updated: ManagedResource,
    valuesChanged: boolean,
    record: string | null | undefined,
  ): Promise<ManagedResource | undefined> {
    if (valuesChanged) {
      try {
        return await this.kube.replace(ref, updated);
      } catch (error) {
        if (!isStatus(error, 400) && !isStatus(error, 422)) throw error;
        const paths = (await this.resolve(kind, mr))?.resolution.writes.map((w) => w.path) ?? [];
        throw new ClassifiedError(
          'InvalidInput',
          `cannot resolve references: ${refusedWriteMessage(kind.api.kind, paths, apiMessage(error))}`,
        );
      }
    }
    if (record === undefined) return undefined;
    return this.kube.patch(ref, mr.metadata.uid, { metadata: { annotations: { [REFERRED_OBJECTS]: record } } });
  }

  /** Takes this object's mark off everything it names; run once its external resource is gone. */
  async release(kind: ManagedKind, mr: ManagedResource): Promise<string[]> {
    const mark = usedByAnnotation(mr.metadata.uid);
    const dependencies = this.dependenciesOf(kind, mr);
    const others: ReferredObject[] = [];
    for (const key of namedTargets(dependencies)) {
      const apiVersion = apiVersionFor(dependencies, key);
      if (findKind(key.group, key.kind) || !apiVersion) continue;
      this.kube.forgetReferenced(key, apiVersion, mr.metadata.uid);
      others.push({ ...key, apiVersion });
    }
    const targets = namedTargets(dependencies).filter((k) => findKind(k.group, k.kind));
    // An Object's finalizer comes off whatever it named, and whatever its record says it held.
    const guarded = guardsReferred(kind) ? uniqueByKey([...others, ...referredObjects(mr.metadata.annotations)]) : [];
    const finalizer = referredFinalizer(mr.metadata.uid);
    const [released, unguarded] = await Promise.all([
      Promise.all(targets.map((t) => this.kube.patchAnnotations(t, { [mark]: null }, { ifExists: true }))),
      Promise.all(guarded.map((t) => this.kube.setFinalizer(t.apiVersion, t, finalizer, false))),
    ]);
    return [
      ...targets.filter((_, i) => released[i]).map((t) => `released ${describeKey(t)}`),
      ...guarded.filter((_, i) => unguarded[i]).map((t) => `removed finalizer ${finalizer} from ${describeKey(t)}`),
    ];
  }

  /**
   * Dependents that still exist and still refer to this object: its external resource must wait
   * for them. Marks whose dependent is gone, replaced or no longer refers here are stale and
   * ignored. A dependent this object itself depends on is a cycle; it does not block, or
   * neither could ever go.
   */
  async blockers(kind: ManagedKind, mr: ManagedResource): Promise<string[]> {
    const me = refOf(kind, mr);
    const mine = new Set(namedTargets(this.dependenciesOf(kind, mr)).map(keyOf));
    const checks = usedByMarks(mr.metadata.annotations).map(async ({ dependentUid, dependent }) => {
      const dependentKind = findKind(dependent.group, dependent.kind);
      if (!dependentKind || mine.has(keyOf(dependent))) return undefined;
      const found = await this.kube.get({ ...dependent });
      if (!found || found.metadata.uid !== dependentUid) return undefined;
      const refersHere = namedTargets(this.dependenciesOf(dependentKind, found)).some((t) => keyOf(t) === keyOf(me));
      return refersHere ? describeKey(dependent) : undefined;
    });
    return (await Promise.all(checks)).filter((b): b is string => b !== undefined).sort();
  }

  /** What the object depends on inside its namespace: a reference across the boundary counts for nothing. */
  private dependenciesOf(kind: Pick<ManagedKind, 'references' | 'compatibleApi'>, mr: ManagedResource): Dependency[] {
    return withinNamespace(mr.metadata.namespace ?? '', dependenciesOf(kind, mr)).inside;
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
        ? namedTargets(this.dependenciesOf(kind, object as unknown as ManagedResource))
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

/**
 * Kinds whose other targets (a ConfigMap, a Secret) carry a finalizer while referred to:
 * provider-kubernetes' Objects, whose references say where their manifest is patched.
 */
const guardsReferred = (kind: Pick<ManagedKind, 'compatibleApi'>): boolean => kind.compatibleApi?.patchRoot !== undefined;

const NO_REFERRED = { unguarded: [] as ReferredObject[], stale: [] as ReferredObject[] };

/**
 * An Object's other targets that exist, are staying and lack its finalizer (unguarded), and the
 * recorded holders of its finalizer that it no longer names (stale).
 */
function referredChanges(
  mr: ManagedResource,
  dependencies: readonly Dependency[],
  present: ReadonlyMap<string, KubeObject>,
  recorded: readonly ReferredObject[],
): { unguarded: ReferredObject[]; stale: ReferredObject[] } {
  const finalizer = referredFinalizer(mr.metadata.uid);
  const named = new Set(namedTargets(dependencies).map(keyOf));
  const unguarded: ReferredObject[] = [];
  for (const key of namedTargets(dependencies)) {
    const apiVersion = apiVersionFor(dependencies, key);
    const found = present.get(keyOf(key)) as (KubeObject & { metadata: { finalizers?: string[] } }) | undefined;
    if (findKind(key.group, key.kind) || !apiVersion || !found || found.metadata.deletionTimestamp) continue;
    if (!(found.metadata.finalizers ?? []).includes(finalizer)) unguarded.push({ ...key, apiVersion });
  }
  return { unguarded, stale: recorded.filter((r) => !named.has(keyOf(r))) };
}

function uniqueByKey<T extends ObjectKey>(keys: readonly T[]): T[] {
  return [...new Map(keys.map((k) => [keyOf(k), k])).values()];
}

function withAnnotation(mr: ManagedResource, key: string, value: string | null): ManagedResource {
  const annotations = { ...(mr.metadata.annotations ?? {}) };
  if (value === null) delete annotations[key];
  else annotations[key] = value;
  return { ...mr, metadata: { ...mr.metadata, annotations } };
}

/** The API server's own message, short and free of headers. */
function apiMessage(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  const parsed = typeof body === 'string' ? safeJson(body) : body;
  return (parsed as { message?: string } | undefined)?.message ?? String(error);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
