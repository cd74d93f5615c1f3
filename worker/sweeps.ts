// Starts the sweep workflow of every kind with bulk observation, once per worker start. Starting
// is idempotent (an existing sweep is kept), so any number of workers may do it; a sweep that
// ended (terminated by hand, say) is started afresh.
import type { Client } from '@temporalio/client';
import type { ManagedKind } from '#core/managed-kind';
import { SWEEP_WORKFLOW, sweepWorkflowIdFor, type SweepInput, type SweepScope } from '#contract/sweep-workflow';

export async function startSweeps(
  client: Client,
  options: { taskQueue: string; namespace?: string; kinds: readonly ManagedKind[] },
): Promise<string[]> {
  const scopes: SweepScope[] = options.kinds
    .filter((k) => k.bulkObservation)
    .map((k) => ({ group: k.api.group, kind: k.api.kind, namespace: options.namespace }));
  return Promise.all(
    scopes.map(async (scope) => {
      const handle = await client.workflow.start(SWEEP_WORKFLOW, {
        workflowId: sweepWorkflowIdFor(scope),
        taskQueue: options.taskQueue,
        args: [{ scope } satisfies SweepInput],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `sweep ${scope.kind}${scope.namespace ? ` in ${scope.namespace}` : ''} for drift, and wake what drifted`,
      });
      return handle.workflowId;
    }),
  );
}
