// Who owns an external resource that carries no tags (a route, a route table association).
// EC2 cannot record an owner on it, so the control plane's own objects do: those of the kind
// whose crossplane.io/external-name names it. Only a race between two creates, or the same name
// set by hand on two objects, makes several, and everyone must agree which one keeps it: the one
// whose status already mirrors that very resource (it has been acting as its owner), else the
// one created first, the uid breaking a tie. Creation time alone would not do: it counts whole
// seconds, and it says when the object was made, not when it named the resource, so a name set by
// hand a moment later, or on an older object, would take the resource over. Any other is told
// (ExternalObservation.claimedBy), which the engine turns into Synced=False naming the owner,
// and lets go of on delete without touching the resource (activities/ownership.ts).
import { EXTERNAL_NAME } from '#core/annotations';
import type { ConnectContext, ExternalClaim } from '#core/external-client';
import type { KindApi } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';

/** An object of the kind as the control plane lists it, reduced to what ownership needs. */
interface Recorder {
  uid: string;
  namespace: string;
  name: string;
  externalName?: string;
  creationTimestamp: string;
  deleting: boolean;
  /** Its status.atProvider describes the resource it names: only an owner's observation writes that. */
  mirrors: boolean;
}

export class RecordedOwners<Observation> {
  constructor(
    private readonly api: KindApi,
    /** The external name of the resource a status.atProvider describes, when it names one. */
    private readonly nameMirrored: (atProvider: Partial<Observation>) => string | undefined,
    /** Absent where the control plane cannot be read (a client driven without Kubernetes): nothing is checked then. */
    private readonly context: ConnectContext | undefined,
  ) {}

  /**
   * The object that comes before `mr` among those recording `externalName`, if any: the owner
   * `mr` must leave the resource to. While there is one, `mr` is woken when that owner starts
   * being deleted, goes, or records another name, so that it may then take the resource or make
   * its own at once rather than at the end of its backoff; otherwise nothing wakes it.
   */
  async ownerBefore(mr: ManagedResource<unknown, unknown>, externalName: string): Promise<ExternalClaim | undefined> {
    const list = this.context?.listControlObjects;
    if (!list) return undefined;
    let owner: Recorder | undefined;
    const letsGo = (obj: Record<string, unknown>) => {
      const r = recordOf(obj);
      return owner !== undefined && r.uid === owner.uid && (r.deleting || r.externalName !== externalName);
    };
    const recorders = (await list.call(this.context, this.scope(), mr as ManagedResource, letsGo))
      .map((obj) => this.recorderOf(obj))
      .filter((r) => r.externalName === externalName);
    const own = recorders.find((r) => r.uid === mr.metadata.uid);
    const earlier = recorders.filter((r) => r.uid !== mr.metadata.uid && (!own || comesFirst(r, own)));
    owner = earlier.sort((a, b) => (comesFirst(a, b) ? -1 : 1))[0];
    if (!owner) {
      this.forget(mr);
      return undefined;
    }
    return { uid: owner.uid, kind: `${this.api.singular}.${this.api.group}`, namespace: owner.namespace, name: owner.name };
  }

  /** `mr` no longer waits for another object to let go of a resource. */
  forget(mr: ManagedResource<unknown, unknown>): void {
    this.context?.forgetControlObjects?.(mr.metadata.uid, this.scope());
  }

  private scope() {
    return { apiVersion: `${this.api.group}/${this.api.version}`, kind: this.api.kind, namespace: '' };
  }

  private recorderOf(obj: Record<string, unknown>): Recorder {
    const recorder = recordOf(obj);
    const atProvider = (obj.status as { atProvider?: Partial<Observation> } | undefined)?.atProvider;
    const mirrored = atProvider ? this.nameMirrored(atProvider) : undefined;
    return { ...recorder, mirrors: mirrored !== undefined && mirrored === recorder.externalName };
  }
}

function recordOf(obj: Record<string, unknown>): Omit<Recorder, 'mirrors'> {
  const metadata = (obj.metadata ?? {}) as {
    uid?: string;
    namespace?: string;
    name?: string;
    annotations?: Record<string, string>;
    creationTimestamp?: string | Date;
    deletionTimestamp?: string | Date;
  };
  const created = metadata.creationTimestamp;
  return {
    uid: metadata.uid ?? '',
    namespace: metadata.namespace ?? '',
    name: metadata.name ?? '',
    externalName: metadata.annotations?.[EXTERNAL_NAME],
    creationTimestamp: created instanceof Date ? created.toISOString() : (created ?? ''),
    deleting: metadata.deletionTimestamp !== undefined,
  };
}

/**
 * The order every object agrees on: one that mirrors the resource before one that does not, then
 * creation time, then uid. Status is the controller's to write, so nothing a user sets in a spec
 * or an annotation moves an object ahead.
 */
function comesFirst(a: Recorder, b: Recorder): boolean {
  if (a.mirrors !== b.mirrors) return a.mirrors;
  const at = Date.parse(a.creationTimestamp) - Date.parse(b.creationTimestamp);
  return at !== 0 && !Number.isNaN(at) ? at < 0 : a.uid < b.uid;
}
