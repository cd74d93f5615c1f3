// How many managed resources of each kind are Ready and Synced, as the watcher last heard them:
// the numbers behind the `chronoplane_managed_resources` gauge. Kept up to date event by event
// (one map entry per object), so a scrape costs a walk over a few dozen totals, not the objects.
import type { KubernetesObject } from '@kubernetes/client-node';

type ConditionStatus = 'True' | 'False' | 'Unknown';

interface ResourceStatusCount {
  kind: string;
  ready: ConditionStatus;
  synced: ConditionStatus;
  count: number;
}

interface WithConditions {
  status?: { conditions?: { type?: string; status?: string }[] };
}

export class ResourceStatuses {
  /** Object uid → its row's key. */
  private readonly rowOf = new Map<string, string>();
  /** Row key (kind, Ready, Synced) → how many objects are in it. */
  private readonly totals = new Map<string, number>();

  note(kind: string, obj: KubernetesObject, type: 'ADDED' | 'MODIFIED' | 'DELETED'): void {
    const uid = obj.metadata?.uid;
    if (!uid) return;
    const before = this.rowOf.get(uid);
    if (before !== undefined) this.add(before, -1);
    if (type === 'DELETED') {
      this.rowOf.delete(uid);
      return;
    }
    const row = JSON.stringify([kind, statusOf(obj, 'Ready'), statusOf(obj, 'Synced')]);
    this.rowOf.set(uid, row);
    this.add(row, 1);
  }

  counts(): ResourceStatusCount[] {
    return [...this.totals].map(([row, count]) => {
      const [kind, ready, synced] = JSON.parse(row) as [string, ConditionStatus, ConditionStatus];
      return { kind, ready, synced, count };
    });
  }

  private add(row: string, delta: number): void {
    const total = (this.totals.get(row) ?? 0) + delta;
    if (total === 0) this.totals.delete(row);
    else this.totals.set(row, total);
  }
}

function statusOf(obj: KubernetesObject, type: string): ConditionStatus {
  const status = (obj as WithConditions).status?.conditions?.find((c) => c.type === type)?.status;
  return status === 'True' || status === 'False' ? status : 'Unknown';
}
