// Whether a target object already is as its managed resource (an Object, a
// KubernetesApplicationResource) wants it, without writing to it. Two cheap answers first: a
// spec changed since our last apply is out of date (an apply must drop the fields it no longer
// names), and a target that contains every field of the manifest as written is up to date.
// When that containment check fails it may only be the API server's normalization (`cpu:
// 1000m` read back as `1`, defaulted list items such as a port's protocol), so a dry-run
// server-side apply decides: the target is up to date when applying would change nothing.
// The verdict is kept per target resourceVersion and manifest, so a settled resource pays for
// the dry run once, not on every pass.
import { createHash } from 'node:crypto';
import type { KubernetesObject } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';

interface Verdict {
  manifest: string;
  resourceVersion: string | undefined;
  upToDate: boolean;
}

/** Verdicts are kept per `targetId`: one target of one managed resource (remote/cluster.ts forms it). */
export class UpToDateCheck {
  /** Target → the manifest digest of our last apply, while this worker lives. */
  private readonly applied = new Map<string, string>();
  /** Target → the dry run's verdict for one manifest and target resourceVersion. */
  private readonly verdicts = new Map<string, Verdict>();

  async isUpToDate(
    targetId: string,
    desired: KubernetesObject,
    live: KubernetesObject,
    dryRunApply: () => Promise<KubernetesObject>,
  ): Promise<boolean> {
    const manifest = digest(desired);
    const lastApplied = this.applied.get(targetId);
    if (lastApplied !== undefined && lastApplied !== manifest) return false;
    if (contains(live, desired)) return true;
    const resourceVersion = live.metadata?.resourceVersion;
    const known = this.verdicts.get(targetId);
    if (known && known.manifest === manifest && known.resourceVersion === resourceVersion) return known.upToDate;
    const upToDate = isDeepStrictEqual(withoutBookkeeping(await dryRunApply()), withoutBookkeeping(live));
    this.verdicts.set(targetId, { manifest, resourceVersion, upToDate });
    return upToDate;
  }

  /** Records a successful apply of `desired`. */
  recordApply(targetId: string, desired: KubernetesObject): void {
    this.applied.set(targetId, digest(desired));
    this.verdicts.delete(targetId);
  }

  forget(targetId: string): void {
    this.applied.delete(targetId);
    this.verdicts.delete(targetId);
  }
}

/** Every field `want` names has the same value in `have`; lists must match as a whole. */
export function contains(have: unknown, want: unknown): boolean {
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    if (have === null || typeof have !== 'object' || Array.isArray(have)) return false;
    return Object.entries(want).every(([field, value]) => contains((have as Record<string, unknown>)[field], value));
  }
  return isDeepStrictEqual(want, have);
}

/** What a dry run and a read may differ in without the object differing. */
function withoutBookkeeping(object: KubernetesObject): KubernetesObject {
  const { managedFields: _managedFields, ...metadata } = object.metadata ?? {};
  return { ...object, metadata };
}

function digest(object: KubernetesObject): string {
  return createHash('sha256').update(JSON.stringify(object)).digest('base64');
}
