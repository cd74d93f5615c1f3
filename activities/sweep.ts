// The sweep's one activity: list a kind's managed objects, observe the settled ones in bulk
// (one client and a few calls per ProviderConfig and region), and say whom to wake. It reads
// and never writes: no create, update or delete, no status. The woken resources' own passes
// do all of that, so there is one reconciler, not two.
import { ApplicationFailure } from '@temporalio/common';
import type { ConnectContext } from '../runtime/external-client';
import type { ManagedKind } from '../runtime/managed-kind';
import type { ManagedResource } from '../runtime/managed-resource';
import { findKind } from '../providers/registry';
import type { SweepOutcome, SweepScope, WakeTarget } from '../workflows/sweep-api';
import { asActivity, classify } from './failures';
import { groupByScope, isSettled, reasonToWake } from './sweep-drift';
import type { ListManagedObjects } from './sweep-list';

export interface SweepActivityOptions {
  /**
   * Overrides every kind's sweep interval (seconds). It is the steady poll's override
   * (CHRONOPLANE_POLL_STEADY_SECONDS): drift is found within the steady interval either way.
   */
  intervalOverrideSeconds?: number;
  /** Where kinds are looked up; the registry unless a test brings its own. */
  kindFor?: (group: string, kind: string) => ManagedKind | undefined;
}

export function createSweepActivities(list: ListManagedObjects, context: ConnectContext, options: SweepActivityOptions = {}) {
  return {
    async sweepKind(scope: SweepScope): Promise<SweepOutcome> {
      return asActivity(async () => {
        const kind = (options.kindFor ?? findKind)(scope.group, scope.kind);
        if (!kind?.bulkObservation) {
          throw ApplicationFailure.nonRetryable(`${scope.kind}.${scope.group} has no bulk observation to sweep with`, 'NoBulkObservation');
        }
        const listed = await list(kind.api, scope.namespace);
        const settled = listed.filter(isSettled);
        const groups = groupByScope(settled, kind.bulkObservation.scopeOf);
        const wake: WakeTarget[] = [];
        const failures: string[] = [];
        // One scope after another: there are few (one per ProviderConfig and region), and the
        // provider's rate limits are per account and region anyway.
        for (const [name, mrs] of groups) {
          try {
            wake.push(...(await sweepScope(kind, mrs, context)));
          } catch (error) {
            // Its resources' own passes report the error in Synced, and back off from there.
            const { message } = classify(error);
            failures.push(`${name}: ${message}`);
            wake.push(...mrs.map((mr) => wakeTarget(kind, mr, `the sweep cannot observe it: ${message}`)));
          }
        }
        return {
          intervalSeconds: options.intervalOverrideSeconds ?? kind.poll.steadySeconds,
          listed: listed.length,
          swept: settled.length,
          scopes: groups.size,
          wake,
          failures,
        };
      });
    },
  };
}

/** Observes one scope's resources with one client, and picks those whose workflows should look. */
async function sweepScope(kind: ManagedKind, mrs: ManagedResource[], context: ConnectContext): Promise<WakeTarget[]> {
  const client = await kind.connector.connect(mrs[0]!, context);
  if (!client.observeMany) throw new Error(`the ${kind.api.kind} client has no observeMany, though the kind declares bulkObservation`);
  const swept = await client.observeMany(mrs);
  return mrs.flatMap((mr) => {
    const reason = reasonToWake(mr, swept.get(mr.metadata.uid));
    return reason ? [wakeTarget(kind, mr, reason)] : [];
  });
}

function wakeTarget(kind: ManagedKind, mr: ManagedResource, reason: string): WakeTarget {
  const { namespace = '', name, uid, resourceVersion, generation } = mr.metadata;
  return { ref: { group: kind.api.group, kind: kind.api.kind, namespace, name }, uid, resourceVersion, generation, reason };
}

export type SweepActivities = ReturnType<typeof createSweepActivities>;
