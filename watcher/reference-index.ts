// Who depends on whom, kept from the informers' own view of every managed object, so that
// wake-ups are events, not polls. When an object changes in a way its dependents care about
// (it turns Ready, gets its external name, its labels or a field they read change, it goes),
// they are woken; when a dependent lets go of an object (it is deleted, or now points
// elsewhere), that object is woken, so a deletion waiting for it proceeds. It decides only whom
// to wake; the workflows decide everything else. Rebuilt from the relist after a restart.
import type { KubernetesObject } from '@kubernetes/client-node';
import { EXTERNAL_NAME } from '#core/annotations';
import { WAITING_FOR_DEPENDENTS } from '#core/conditions';
import type { KindApi, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import type { ReferenceDeclaration } from '#core/references/declaration';
import { dependenciesOf, keyOf, namedTargets, type Dependency } from '#runtime/references/dependencies';
import { getValue } from '#core/references/fieldpath';
import type { ResourceEvent } from '#contract/reconcile-workflow';

interface WakeUp {
  ref: ResourceRef;
  event: ResourceEvent;
}

interface Known {
  ref: ResourceRef;
  uid: string;
  resourceVersion: string;
  generation?: number;
  labels: Record<string, string>;
  dependencies: Dependency[];
  targets: string[];
  /** What every dependent sees of this object (readiness, name, labels); a change wakes them. */
  print: string;
  /** The fields dependents read from it, as last seen; a field read since then is not compared. */
  read: Map<string, string>;
}

export class ReferenceIndex {
  private readonly known = new Map<string, Known>();
  /** target key → keys of the objects that name it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** `group/kind/namespace` → keys of the objects with a selector over that scope. */
  private readonly selecting = new Map<string, Set<string>>();

  constructor(private readonly declarationsOf: (api: KindApi) => readonly ReferenceDeclaration[] | undefined) {}

  /** Records the change and returns the wake-ups it calls for (never for the object itself). */
  observe(api: KindApi, obj: KubernetesObject, type: ResourceEvent['type']): WakeUp[] {
    const m = obj.metadata ?? {};
    if (!m.name || !m.uid) return [];
    const ref: ResourceRef = { group: api.group, kind: api.kind, namespace: m.namespace ?? '', name: m.name };
    const key = keyOf(ref);
    const before = this.known.get(key);
    const wake = new Set<string>();

    if (type === 'DELETED') {
      this.forget(key, before);
      for (const k of [...(this.dependents.get(key) ?? []), ...(before?.targets ?? [])]) wake.add(k);
      for (const k of this.selectorsMatching(ref, before?.labels ?? {})) wake.add(k);
      return this.wakeUps(wake, key);
    }

    const dependencies = dependenciesOf({ references: this.declarationsOf(api) }, obj as unknown as ManagedResource);
    const targets = namedTargets(dependencies).map(keyOf);
    const labels = m.labels ?? {};
    const now: Known = {
      ref,
      uid: m.uid,
      resourceVersion: m.resourceVersion ?? '',
      generation: m.generation,
      labels,
      dependencies,
      targets,
      print: printOf(obj),
      read: new Map([...this.fieldPathsReadFrom(key)].map((path) => [path, JSON.stringify(safeGet(obj, path))])),
    };
    this.forget(key, before);
    this.remember(key, now);

    const fieldChanged = [...(before?.read ?? [])].some(([path, value]) => now.read.get(path) !== value);
    if (before?.print !== now.print || before.uid !== now.uid || fieldChanged) {
      for (const k of this.dependents.get(key) ?? []) wake.add(k);
      for (const k of this.selectorsMatching(ref, labels)) wake.add(k);
      for (const k of this.selectorsMatching(ref, before?.labels ?? {})) wake.add(k);
    }
    // Objects this one no longer names may be waiting to be deleted until it lets go.
    for (const k of before?.targets ?? []) if (!targets.includes(k)) wake.add(k);
    // Seen for the first time by this watcher (it started, or restarted after missing events)
    // while it waits for other objects: what it waits for (a reference turning Ready, a
    // dependent going) may have happened while nobody watched, and no wake-up reached it. Its own
    // event, unchanged, tells its workflow nothing new; a wake-up makes it look, once.
    if (!before && waitsForOthers(obj)) return this.wakeUps(wake.add(key));
    return this.wakeUps(wake, key);
  }

  private fieldPathsReadFrom(key: string): Set<string> {
    const paths = new Set<string>();
    for (const dependentKey of this.dependents.get(key) ?? []) {
      for (const d of this.known.get(dependentKey)?.dependencies ?? []) {
        if (d.type === 'patch' && keyOf(d.target) === key) paths.add(d.fieldPath);
        if (d.type === 'ref' && d.declaration.fromFieldPath && keyOf(d.target) === key) paths.add(d.declaration.fromFieldPath);
      }
    }
    return paths;
  }

  private selectorsMatching(ref: ResourceRef, labels: Record<string, string>): string[] {
    const out: string[] = [];
    for (const k of this.selecting.get(scopeOf(ref)) ?? []) {
      const selectors = this.known.get(k)?.dependencies.filter((d) => d.type === 'selector') ?? [];
      const matches = selectors.some(
        (d) =>
          d.type === 'selector' &&
          d.kind === ref.kind &&
          d.group === ref.group &&
          Object.entries(d.selector.matchLabels ?? {}).every(([l, v]) => labels[l] === v),
      );
      if (matches) out.push(k);
    }
    return out;
  }

  private remember(key: string, known: Known): void {
    this.known.set(key, known);
    for (const t of known.targets) setOf(this.dependents, t).add(key);
    for (const d of known.dependencies) if (d.type === 'selector') setOf(this.selecting, scopeOf(d)).add(key);
  }

  private forget(key: string, known: Known | undefined): void {
    if (!known) return;
    this.known.delete(key);
    for (const t of known.targets) this.dependents.get(t)?.delete(key);
    for (const d of known.dependencies) if (d.type === 'selector') this.selecting.get(scopeOf(d))?.delete(key);
  }

  /** Wake-ups for `keys`, leaving out `self` (an object is not woken by its own change). */
  private wakeUps(keys: Set<string>, self?: string): WakeUp[] {
    const out: WakeUp[] = [];
    for (const k of keys) {
      const target = this.known.get(k);
      if (!target || k === self) continue;
      out.push({
        ref: target.ref,
        event: { type: 'MODIFIED', uid: target.uid, resourceVersion: target.resourceVersion, generation: target.generation, wake: true },
      });
    }
    return out;
  }
}

/**
 * Whether its last pass waited for other objects: a reference not resolved yet
 * (ReferencesResolved=False), or dependents to go before its deletion (decide.ts).
 */
function waitsForOthers(obj: KubernetesObject): boolean {
  const conditions = (obj as { status?: { conditions?: { type: string; status: string; message?: string }[] } }).status?.conditions ?? [];
  return conditions.some(
    (c) =>
      (c.type === 'ReferencesResolved' && c.status === 'False') ||
      (c.type === 'Ready' && c.status === 'False' && (c.message ?? '').startsWith(WAITING_FOR_DEPENDENTS)),
  );
}

/** Ready, external name, deletion and labels: what any dependent may be waiting for. */
function printOf(obj: KubernetesObject): string {
  const m = obj.metadata ?? {};
  const ready = ((obj as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? []).find(
    (c) => c.type === 'Ready',
  )?.status;
  return JSON.stringify([ready, m.annotations?.[EXTERNAL_NAME], m.deletionTimestamp ?? null, m.labels ?? {}]);
}

const scopeOf = (s: { group: string; kind: string; namespace: string }) => `${s.group}/${s.kind}/${s.namespace}`;

function setOf(map: Map<string, Set<string>>, key: string): Set<string> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

function safeGet(object: unknown, path: string): unknown {
  try {
    return getValue(object, path);
  } catch {
    return undefined;
  }
}
