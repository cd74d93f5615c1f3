// One round: examples/aws-network/ applied into a namespace of its own while one fault kind is
// killed at random moments, checked (every object Ready and Synced, exactly one external
// resource each), deleted while killed again, and checked again (every object gone, nothing left
// at EC2), with the round's DependencyViolations as moto counted them.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { Ec2CallSummary } from '#bench/ec2-call-counter';
import { ec2Inventory, inventoryAdded } from '#bench/ec2-inventory';
import { kubectl } from '#stack/kubectl';
import { refFor, workflowIdFor, type KindApi } from '#core/managed-kind';
import { stateQuery } from '#contract/reconcile-workflow';
import { extraResources, keyOf, oneExternalEach, type ObservedObject, type OneEachResult } from './checks';
import type { RestartableController } from './controllers';
import { readEc2Content, leftOver } from './ec2-content';
import type { Ec2CallLedger } from './ec2-calls';
import type { Fault } from './faults';
import { interruptionsIn, type Interruptions } from './interruptions';
import { objectLister } from './objects';
import type { FaultKind } from './options';
import { runPhase, type KillWindows, type PhaseOutcome } from './phase';
import type { Random } from './random';
import { withTimeout } from './timeout';

export interface RoundContext {
  kubeconfigPath: string;
  ec2Endpoint: string;
  networkDir: string;
  /** The example's managed objects and their kinds. */
  objects: { key: string; api: KindApi; name: string }[];
  controllers: Record<'worker' | 'watcher', RestartableController>;
  faults: Record<FaultKind, Fault>;
  ledger: Ec2CallLedger;
  temporal: Client;
  /** The round's own generator (roundRandom), given the round's fault and its place among that fault's rounds. */
  random(fault: FaultKind, nthOfFault: number): Random;
  killWindows: KillWindows;
  deadlineSeconds: number;
}

/** An object that did not get where the phase should have taken it, with what tells why. */
export interface ObjectFinding {
  object: string;
  conditions: string;
  workflowId: string;
  /** What its workflow says of itself: status, passes, last pass. */
  workflow: string;
}

export interface RoundResult {
  index: number;
  fault: FaultKind;
  namespace: string;
  /** Kills this round was given for its apply and its delete (its plan and what earlier phases left). */
  killsGiven: { apply: number; delete: number };
  apply: PhaseOutcome;
  delete: PhaseOutcome;
  /** The objects each phase waited for at its last poll before its goal held: where a slow convergence went. */
  lastToConverge: { apply: string[]; delete: string[] };
  /** Objects not Ready=True and Synced=True when the apply phase ended. */
  notReady: ObjectFinding[];
  external: OneEachResult;
  /** Objects still there when the delete phase ended. */
  stuck: ObjectFinding[];
  /** What EC2 still held after the delete: the namespace's tagged resources, and anything new untagged. */
  leaks: Record<string, string[]>;
  ec2Calls: Ec2CallSummary;
  /** What the kills interrupted, from the round's workflow histories. */
  interrupted: Interruptions;
  /** Controllers found dead without having been killed, and restarted. */
  unexpectedExits: { controller: string; atSecond: number; logFile: string }[];
  seconds: number;
}

export const lossesOf = (round: RoundResult) => ({
  notReady: round.notReady.length,
  duplicates: extraResources(round.external),
  missing: round.external.missing.length,
  leaks: Object.values(round.leaks).reduce((sum, ids) => sum + ids.length, 0),
  stuck: round.stuck.length,
  dependencyViolations: round.ec2Calls.dependencyViolations,
});

export async function runRound(
  context: RoundContext,
  round: { index: number; fault: FaultKind; nthOfFault: number; kills: { apply: number; delete: number } },
): Promise<RoundResult> {
  const startedAt = Date.now();
  const namespace = `chaos-${round.index}`;
  const fault = context.faults[round.fault];
  const random = context.random(round.fault, round.nthOfFault);
  const expected = context.objects.map((o) => o.key);
  const list = objectLister(context.kubeconfigPath, [...new Map(context.objects.map((o) => [o.api.kind, o.api])).values()], namespace);
  const unexpectedExits: RoundResult['unexpectedExits'] = [];
  const supervise = async () => {
    for (const controller of Object.values(context.controllers)) {
      if ((await controller.pid()) !== undefined) continue;
      unexpectedExits.push({ controller: controller.name, atSecond: (Date.now() - startedAt) / 1000, logFile: controller.logFile });
      await controller.start();
    }
  };
  const phase = async (name: 'apply' | 'delete', kills: number, converged: () => Promise<boolean>) => {
    const outcome = await runPhase({
      kills,
      fault,
      random,
      maxGapSeconds: context.killWindows.of(name),
      deadlineSeconds: context.deadlineSeconds,
      converged,
      supervise,
    });
    context.killWindows.took(name, outcome.totalSeconds);
    return outcome;
  };
  const run = (args: string[]) => kubectl(context.kubeconfigPath, args);
  // After a phase, what is there must be known: a list that fails (a just restarted API server
  // still warming up) is tried again for a while.
  const listSurely = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await list();
      } catch (error) {
        if (attempt >= 30) throw error;
        await sleep(2_000);
      }
    }
  };

  await run(['create', 'namespace', namespace]);
  const inventoryBefore = await ec2Inventory(context.ec2Endpoint);
  await context.ledger.begin();

  await run(['apply', '-n', namespace, '-f', context.networkDir]);
  const lastToConverge: RoundResult['lastToConverge'] = { apply: [], delete: [] };
  let waitingFor: string[] = [];
  const allReady = async () => {
    const objects = await list();
    const ready = new Set(objects.filter((o) => o.ready && o.synced).map(keyOf));
    const waiting = expected.filter((key) => !ready.has(key));
    if (waiting.length > 0) waitingFor = waiting;
    return waiting.length === 0;
  };
  const apply = await phase('apply', round.kills.apply, allReady);
  lastToConverge.apply = waitingFor;
  waitingFor = [];
  const afterApply = await listSurely();
  const notReady = await findings(
    context,
    namespace,
    afterApply.filter((o) => !(o.ready && o.synced)),
    expected.filter((key) => !afterApply.some((o) => keyOf(o) === key)),
  );
  const external = oneExternalEach(afterApply, await readEc2Content(context.ec2Endpoint, namespace));

  await run(['delete', '-n', namespace, '-f', context.networkDir, '--wait=false']);
  const carried = round.kills.apply - apply.killsMade;
  const deleteKills = round.kills.delete + carried;
  const allGone = async () => {
    const left = (await list()).map(keyOf);
    if (left.length > 0) waitingFor = left;
    return left.length === 0;
  };
  const del = await phase('delete', deleteKills, allGone);
  lastToConverge.delete = waitingFor;
  const stuck = await findings(context, namespace, await listSurely(), []);
  const leaks = leaksOf(
    leftOver(await readEc2Content(context.ec2Endpoint, namespace)),
    inventoryAdded(inventoryBefore, await ec2Inventory(context.ec2Endpoint)),
  );
  const ec2Calls = await context.ledger.end();
  const interrupted = await interruptionsIn(
    context.temporal,
    context.objects.map((o) => workflowIdFor(refFor(o.api, namespace, o.name))),
  );
  return {
    index: round.index,
    fault: round.fault,
    namespace,
    killsGiven: { apply: round.kills.apply, delete: deleteKills },
    apply,
    delete: del,
    lastToConverge,
    notReady,
    external,
    stuck,
    leaks,
    ec2Calls,
    interrupted,
    unexpectedExits,
    seconds: (Date.now() - startedAt) / 1000,
  };
}

/**
 * What the delete left: the namespace's tagged resources; or, when there are none, whatever EC2
 * lists now that it did not before the round. Everything untagged of the example hangs off a
 * tagged parent (routes and associations in route tables, rules in security groups, a VPC's main
 * route table and default group), so with a tagged leak the untagged diff would only repeat it.
 */
function leaksOf(tagged: Record<string, string[]>, added: Record<string, string[]>): Record<string, string[]> {
  if (Object.keys(tagged).length > 0) return tagged;
  return Object.fromEntries(Object.entries(added).map(([type, ids]) => [`untagged ${type}`, ids]));
}

async function findings(context: RoundContext, namespace: string, objects: ObservedObject[], absent: string[]): Promise<ObjectFinding[]> {
  const apiOf = (key: string) => context.objects.find((o) => o.key === key)!;
  const describe = async (key: string, conditions: string): Promise<ObjectFinding> => {
    const { api, name } = apiOf(key);
    const workflowId = workflowIdFor(refFor(api, namespace, name));
    return { object: key, conditions, workflowId, workflow: await workflowSummary(context.temporal, workflowId) };
  };
  return Promise.all([
    ...objects.map((o) => describe(keyOf(o), `${o.deleting ? 'deleting; ' : ''}${o.conditions}`)),
    ...absent.map((key) => describe(key, 'absent from the API server')),
  ]);
}

async function workflowSummary(temporal: Client, workflowId: string): Promise<string> {
  try {
    const handle = temporal.workflow.getHandle(workflowId);
    const description = await handle.describe();
    const state = await withTimeout(handle.query(stateQuery), 10_000, 'the state query');
    return `${description.status.name}, ${description.historyLength} events; ${state.passes} passes, ${state.consecutiveFailures} failing in a row, last pass ${JSON.stringify(state.lastPass)}`;
  } catch (error) {
    return `(${error instanceof Error ? error.message : String(error)})`;
  }
}
