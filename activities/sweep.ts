// The sweep's one activity: list a kind's managed objects, observe the settled ones in bulk
// (one client and a few calls per ProviderConfig and region), and say whom to wake. It reads
// and never writes: no create, update or delete, no status. The woken resources' own passes
// do all of that, so there is one reconciler, not two.
import { ApplicationFailure } from '@temporalio/common';
import type { ConnectContext } from '#core/external-client';
import type { ManagedKind } from '#core/managed-kind';
import type { ManagedResource } from '#core/managed-resource';
import { findKind } from '#providers/registry';
import type { SweepActivities, SweepOutcome, SweepScope, WakeTarget } from '#contract/sweep-workflow';
import { asActivity, classify } from './failures';
import { awaitsProvider, groupByScope, isSettled, reasonToWake } from './sweep-drift';
import type { ListManagedObjects } from './sweep-list';

interface SweepActivityOptions {
  /**
   * Overrides every kind's sweep interval (seconds). It is the steady poll's override
   * (CHRONOPLANE_POLL_STEADY_SECONDS): drift is found within the steady interval either way.
   */
  intervalOverrideSeconds?: number;
  /** Where kinds are looked up; the registry unless a test brings its own. */
  kindFor?: (group: string, kind: string) => ManagedKind | undefined;
}

export function createSweepActivities(
  list: ListManagedObjects,
  context: ConnectContext,
  options: SweepActivityOptions = {},
): SweepActivities {
  return {
    /**
     * `recovering` names the scopes whose bulk read failed last time. Their resources may since
     * have turned unready (an unreachable endpoint makes them Ready=False) and back off alone,
     * up to minutes; so there the sweep also looks at those, and wakes them all once the
     * provider answers again.
     */
    async sweepKind(scope: SweepScope, recovering: readonly string[] = []): Promise<SweepOutcome> {
      return asActivity(async () => {
        const kind = (options.kindFor ?? findKind)(scope.group, scope.kind);
        if (!kind?.bulkObservation) {
          throw ApplicationFailure.nonRetryable(`${scope.kind}.${scope.group} has no bulk observation to sweep with`, 'NoBulkObservation');
        }
        const { scopeOf } = kind.bulkObservation;
        const listed = await list(kind.api, scope.namespace);
        const settled = listed.filter(isSettled);
        const groups = groupByScope(settled, scopeOf);
        const waiting = groupByScope(
          listed.filter((mr) => awaitsProvider(mr) && recovering.includes(scopeOf(mr))),
          scopeOf,
        );
        for (const name of waiting.keys()) if (!groups.has(name)) groups.set(name, []);
        const wake: WakeTarget[] = [];
        const failures: string[] = [];
        const failedScopes: string[] = [];
        // One scope after another: there are few (one per ProviderConfig and region), and the
        // provider's rate limits are per account and region anyway.
        for (const [name, mrs] of groups) {
          const unsettled = waiting.get(name) ?? [];
          try {
            wake.push(...(await sweepScope(kind, mrs, unsettled, context)));
            wake.push(...unsettled.map((mr) => wakeTarget(kind, mr, 'the provider answers again')));
          } catch (error) {
            // The settled resources' own passes report the error, and back off from there; the
            // unsettled ones are backing off already.
            const { message } = classify(error);
            failures.push(`${name}: ${message}`);
            failedScopes.push(name);
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
          failedScopes,
        };
      });
    },
  };
}

/**
 * Observes one scope's settled resources with one client, and picks those whose workflows
 * should look. The unsettled ones of a recovering scope are observed with them, so the provider
 * is asked even where nothing there is settled; whether it answers is what counts for them.
 */
async function sweepScope(
  kind: ManagedKind,
  mrs: ManagedResource[],
  unsettled: ManagedResource[],
  context: ConnectContext,
): Promise<WakeTarget[]> {
  const client = await kind.connector.connect((mrs[0] ?? unsettled[0])!, context);
  if (!client.observeMany) throw new Error(`the ${kind.api.kind} client has no observeMany, though the kind declares bulkObservation`);
  const swept = await client.observeMany([...mrs, ...unsettled]);
  return mrs.flatMap((mr) => {
    const reason = reasonToWake(mr, swept.get(mr.metadata.uid));
    return reason ? [wakeTarget(kind, mr, reason)] : [];
  });
}

function wakeTarget(kind: ManagedKind, mr: ManagedResource, reason: string): WakeTarget {
  const { namespace = '', name, uid, resourceVersion, generation } = mr.metadata;
  return { ref: { group: kind.api.group, kind: kind.api.kind, namespace, name }, uid, resourceVersion, generation, reason };
}
