// An in-memory stand-in for the API server and the provider, for workflow unit tests only.
// It implements the same activity functions as activities/reconcile.ts, so the workflow under
// test is the real one; only the I/O behind it is simulated.
import { ApplicationFailure } from '@temporalio/common';
import type { ReconcileActivities } from '#contract/reconcile-activities';
import type { EventNote, WriteBack } from '#contract/write-back';
import type { Condition } from '#core/conditions';
import type { ManagementAction } from '#core/managed';
import type { PassObservation, ProviderError, ReferenceObservation } from '#contract/observation';
import { OBJECT_GONE } from '#core/errors';
import { asActivity } from '#activities/failures';
import type { PollIntervals } from '#core/managed-kind';

interface WorldObject {
  uid: string;
  generation: number;
  resourceVersion: number;
  deleting: boolean;
  paused: boolean;
  finalizer: boolean;
  externalName?: string;
  deletionPolicy: 'Delete' | 'Orphan';
  managementPolicies: ManagementAction[];
  conditions: Condition[];
  observedGeneration?: number;
  atProvider?: unknown;
}

export class World {
  object: WorldObject | undefined = newObject('uid-1');
  external = new Map<string, { upToDate: boolean }>();
  calls: string[] = [];
  /** The oldest resourceVersion each observe was allowed to read, in order. */
  observedAtLeast: (string | undefined)[] = [];
  events: string[] = [];
  /** The workflow's `firstForObject` word on each createExternal call, in order. */
  createsFirstForObject: (boolean | undefined)[] = [];
  /** Thrown by the next createExternal calls, in order. */
  createFailures: Error[] = [];
  /** When each createExternal call began (ms since the epoch), in order. */
  createsAt: number[] = [];
  /** How many createExternal calls added the finalizer first (their `addFinalizer` word). */
  finalizersAddedByCreate = 0;
  /** How many observes after a create still miss it (a provider's eventual consistency). */
  missesAfterCreate = 0;
  /** Thrown by the next observe calls, in order (the API server being down, say). */
  observeFailures: Error[] = [];
  poll: PollIntervals = { steadySeconds: 2, pendingSeconds: 0.2 };
  /** What the resolver reports; set by reference tests, cleared by a resolveReferences step. */
  references: ReferenceObservation | undefined;
  /** Dependents holding the object while it is deleted. */
  blockers: string[] | undefined;
  /** A provider that cannot be reached (a broken ProviderConfig, say). */
  externalError: ProviderError | undefined;
  /** A kind whose provider calls run as local activities (ManagedKind.quickProviderCalls). */
  quickProviderCalls = false;
  /** Whether a create answers what observe would then see, as a VPC's does (ExternalCreation.observation). */
  createAnswersObservation = false;

  count(name: string): number {
    return this.calls.filter((c) => c === name).length;
  }

  condition(type: string): Condition | undefined {
    return this.object?.conditions.find((c) => c.type === type);
  }

  /** A write to the object: a new version, and a deleting object without finalizer is gone. */
  protected bump(o: WorldObject): void {
    o.resourceVersion += 1;
    if (o.deleting && !o.finalizer) this.object = undefined;
  }

  /** Removes the finalizer and records `events`, as the real release does. */
  protected release(uid: string, events: EventNote[]): string {
    const o = this.live(uid);
    o.finalizer = false;
    this.bump(o);
    this.events.push(...events.map((e) => `${e.type} ${e.reason}: ${e.message}`));
    return 'removed finalizer';
  }

  protected live(uid: string): WorldObject {
    if (!this.object || this.object.uid !== uid) throw ApplicationFailure.nonRetryable('gone', OBJECT_GONE);
    return this.object;
  }

  /** What observe answers now, as the real one would. */
  observation(): PassObservation {
    const o = this.object;
    if (!o) return { found: false };
    const object = {
      uid: o.uid,
      generation: o.generation,
      resourceVersion: String(o.resourceVersion),
      deleting: o.deleting,
      paused: o.paused,
      hasFinalizer: o.finalizer,
      externalName: o.externalName,
      deletionPolicy: o.deletionPolicy,
      managementPolicies: o.managementPolicies,
      conditions: structuredClone(o.conditions),
      statusObservedGeneration: o.observedGeneration,
      atProvider: structuredClone(o.atProvider),
    };
    if (o.paused) return { found: true, object, poll: this.poll };
    const extras = {
      references: structuredClone(this.references),
      blockers: this.blockers?.slice(),
      ...(this.quickProviderCalls ? { quickProviderCalls: true } : {}),
    };
    if (this.externalError) return { found: true, object, poll: this.poll, externalError: this.externalError, ...extras };
    const missed = o.externalName !== undefined && this.missesAfterCreate > 0;
    if (missed) this.missesAfterCreate -= 1;
    const ext = o.externalName && !missed ? this.external.get(o.externalName) : undefined;
    const external = ext
      ? { resourceExists: true, resourceUpToDate: ext.upToDate, readiness: 'Available' as const, atProvider: { id: o.externalName } }
      : { resourceExists: false, resourceUpToDate: false };
    return { found: true, object, external, poll: this.poll, ...extras };
  }

  activities(): ReconcileActivities {
    const world = this;
    return {
      async observe(_ref, atLeast): Promise<PassObservation> {
        world.calls.push('observe');
        world.observedAtLeast.push(atLeast);
        const failure = world.observeFailures.shift();
        if (failure) throw failure;
        return world.observation();
      },
      async addFinalizer(_ref, uid) {
        world.calls.push('addFinalizer');
        const o = world.live(uid);
        o.finalizer = true;
        world.bump(o);
        return { summary: 'added finalizer', resourceVersion: String(o.resourceVersion) };
      },
      async removeFinalizer(_ref, uid, events = []) {
        world.calls.push('removeFinalizer');
        return world.release(uid, events);
      },
      async resolveReferences(_ref, uid) {
        world.calls.push('resolveReferences');
        const o = world.live(uid);
        if (world.references) world.references = { ...world.references, writes: [], unmarked: [] };
        world.bump(o);
        return { summary: 'resolved', resourceVersion: String(o.resourceVersion) };
      },
      async releaseDependencies(_ref, uid) {
        world.calls.push('releaseDependencies');
        world.live(uid);
        return 'released';
      },
      async createExternal(_ref, uid, firstForObject, addFinalizer) {
        world.calls.push('createExternal');
        world.createsFirstForObject.push(firstForObject);
        world.createsAt.push(Date.now());
        const o = world.live(uid);
        const resourceVersions: string[] = [];
        if (addFinalizer && !o.finalizer) {
          world.finalizersAddedByCreate += 1;
          o.finalizer = true;
          world.bump(o);
          resourceVersions.push(String(o.resourceVersion));
        }
        const failure = world.createFailures.shift();
        // As the real one (activities/failures.ts): a failure names the versions written before it.
        if (failure) return asActivity(() => Promise.reject(failure), resourceVersions);
        const externalName = `ext-${o.uid}`;
        world.external.set(externalName, { upToDate: true });
        o.externalName = externalName;
        world.bump(o);
        resourceVersions.push(String(o.resourceVersion));
        const next = world.createAnswersObservation ? world.observation() : undefined;
        return { externalName, summary: `created ${externalName}`, resourceVersions, ...(next ? { next } : {}) };
      },
      async updateExternal(_ref, uid) {
        world.calls.push('updateExternal');
        const o = world.live(uid);
        world.external.set(o.externalName!, { upToDate: true });
        return 'updated';
      },
      async deleteExternal(_ref, uid) {
        world.calls.push('deleteExternal');
        const o = world.live(uid);
        world.external.delete(o.externalName!);
        return { summary: 'deleted' };
      },
      async writeBack(_ref, uid, outcome: WriteBack) {
        world.calls.push('writeBack');
        world.events.push(...outcome.events.map((e) => `${e.type} ${e.reason}: ${e.message}`));
        // As the real one: events alone need no object (they outlive a deleted one).
        if (!outcome.status && !outcome.lateInitialized) return { resourceVersions: [] };
        const o = world.live(uid);
        if (outcome.status) {
          o.conditions = outcome.status.conditions;
          o.observedGeneration = outcome.status.observedGeneration;
          o.atProvider = structuredClone(outcome.status.atProvider);
        }
        world.bump(o);
        return { resourceVersions: [String(o.resourceVersion)] };
      },
    };
  }
}

export function newObject(uid: string, over: Partial<WorldObject> = {}): WorldObject {
  return {
    uid,
    generation: 1,
    resourceVersion: 1,
    deleting: false,
    paused: false,
    finalizer: false,
    deletionPolicy: 'Delete',
    managementPolicies: ['*'],
    conditions: [],
    ...over,
  };
}
