// What every reconcile activity shares: the API server, the worker's object cache, the kind
// registry, and the few guarded reads and writes they all build on. One per worker.
import { ApplicationFailure } from '@temporalio/common';
import type { ExternalClient } from '#core/external-client';
import { OBJECT_GONE } from '#core/errors';
import type { ManagedKind, PollIntervals, ResourceRef } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { kindFor } from '#providers/registry';
import { ConnectionPublisher } from './connection-secret';
import { HeldValues } from './held-values';
import { isStatus } from './kube/api-errors';
import type { KubeAccess } from './kube';
import { apiServerReads, type ObjectSource } from './object-cache';
import type { OwnWrites } from '#runtime/own-writes';
import { ReferenceAccess } from './references';

export interface ReconcileActivityOptions {
  /** Overrides every kind's poll intervals (seconds); tests use short ones. */
  pollOverride?: Partial<PollIntervals>;
  /**
   * Fault injection for crash tests: exit the process right after a create attempt's external
   * create call. Only first attempts exit: the retry is the recovery under test, and must finish.
   */
  exitAfterExternalCreate?: boolean;
  /** Where observe reads the object; a GET each time when absent. */
  objects?: ObjectSource;
  /** Where to note the resourceVersions of our writes, for a watcher in this process to leave out. */
  ownWrites?: OwnWrites;
  /** Where observed states wait for the write that records them (history carries digests); a fresh store when absent. */
  held?: HeldValues;
}

export class PassContext {
  readonly objects: ObjectSource;
  readonly references: ReferenceAccess;
  readonly connectionSecrets: ConnectionPublisher;
  readonly held: HeldValues;

  constructor(
    readonly kube: KubeAccess,
    readonly options: ReconcileActivityOptions,
  ) {
    this.objects = options.objects ?? apiServerReads(kube);
    this.references = new ReferenceAccess(kube, this.objects.peek?.bind(this.objects));
    this.connectionSecrets = new ConnectionPublisher(kube);
    this.held = options.held ?? new HeldValues();
  }

  kindOf(ref: ResourceRef): ManagedKind {
    return kindFor(ref.group, ref.kind);
  }

  connect(ref: ResourceRef, mr: ManagedResource): Promise<ExternalClient<unknown, unknown>> {
    return this.kindOf(ref).connector.connect(mr, this.kube) as Promise<ExternalClient<unknown, unknown>>;
  }

  /**
   * Runs a write to the pass's own object and notes the version it produced (the version a
   * write call returned; a later read could be someone else's change), for a watcher in this
   * process to leave its echo out. That watcher holds the object's events while it runs: the
   * echo often arrives before the answer. `writtenOf` finds the object in the answer.
   */
  async ownWrite<T>(
    uid: string,
    write: () => Promise<T>,
    writtenOf: (answer: T) => ManagedResource | undefined = (answer) => answer as ManagedResource | undefined,
  ): Promise<T> {
    const answered = this.options.ownWrites?.begin(uid);
    let version: string | undefined;
    try {
      const answer = await write();
      version = writtenOf(answer)?.metadata.resourceVersion;
      return answer;
    } finally {
      answered?.(version);
    }
  }

  objectGone(ref: ResourceRef, uid: string): ApplicationFailure {
    return ApplicationFailure.nonRetryable(`${ref.kind} ${ref.namespace}/${ref.name} (uid ${uid}) no longer exists`, OBJECT_GONE);
  }

  /**
   * The object as it is now, provided it is still the one this workflow reconciles. Always a
   * GET, never the cache: these reads feed writes. Finalizer changes replace what they read,
   * so it must carry everything (the cache drops kubectl's last-applied copy); and create or
   * update must act on the spec the pass decided on, including references resolveReferences
   * wrote moments ago, which this worker's informer (or another worker's, for a provider
   * activity) may not have seen yet. They run only when a pass changes something.
   */
  async current(ref: ResourceRef, uid: string): Promise<ManagedResource> {
    const mr = await this.kube.get(ref);
    if (!mr || mr.metadata.uid !== uid) throw this.objectGone(ref, uid);
    return mr;
  }

  /**
   * The object no older than `atLeast` (a version the workflow decided on), provided it is still
   * the one this workflow reconciles: from the worker's cache once it has caught up with that
   * version (ObjectSource), else a GET. For a call that acts on the version the workflow decided
   * on and writes nothing that replaces what it read (a delete, whose release is a patch that
   * carries the version it read).
   */
  async decidedOn(ref: ResourceRef, uid: string, atLeast: string): Promise<ManagedResource> {
    const mr = await this.objects.read(ref, atLeast);
    if (!mr || mr.metadata.uid !== uid) throw this.objectGone(ref, uid);
    return mr;
  }

  /**
   * Runs a uid-guarded write. When the API server refuses it, one read tells a successor under
   * the same name (or no object at all) from a real error: the workflow must learn that its
   * object is gone, not retry a write that can never apply. A local activity re-run after a
   * failed workflow task carries its old input, so this is not a rare path.
   */
  async writeToSameObject<T>(ref: ResourceRef, uid: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if ([404, 409, 422].some((code) => isStatus(error, code))) {
        const now = await this.kube.get(ref);
        if (!now || now.metadata.uid !== uid) throw this.objectGone(ref, uid);
      }
      throw error;
    }
  }
}
