// `npm run chaos`: examples/aws-network/ applied and deleted in rounds while the worker is
// SIGKILLed at random moments (200 kills by default), then one round each killing Temporal, the
// API server, the EC2 endpoint and the watcher; every round checked at EC2. Prints a row per
// round, the totals and every loss by name; writes JSON to bench/results/; exits 1 on any loss.
// See docs/chaos.md.
import { join } from 'node:path';
import { readNetworkGraph } from '#bench/network-graph';
import { machine, writeResult } from '#bench/results';
import { repoRoot } from '#stack/paths';
import { runCommand } from '#stack/run-command';
import { Ec2CallLedger } from './ec2-calls';
import { faultOf, type Fault } from './faults';
import { FAULT_KINDS, parseChaosOptions, USAGE, type FaultKind } from './options';
import { planRounds, withCarriedKills, type PlannedRound } from './plan';
import { roundRandom } from './random';
import { findingLines, roundsTable, totalsTable, verdict } from './report';
import { lossesOf, runRound, type RoundContext, type RoundResult } from './rounds';
import { KillWindows } from './phase';
import { startChaosStack } from './stack';

const NETWORK_DIR = join(repoRoot, 'examples', 'aws-network');

const options = parseChaosOptions(process.argv.slice(2));
if (options === 'help') {
  console.log(USAGE);
  process.exit(0);
}
const plan = planRounds(options);
const startedAt = Date.now();
console.log(
  `chaos: seed ${options.seed}; ${plan.length} rounds planned (${describePlan(plan)}); ` +
    `kills up to ${options.maxGapSeconds} s apart; deadline ${options.deadlineSeconds} s after a phase's last kill`,
);

// What was run: the worker is built from the work tree as it is, edits and all.
const source = await sourceState();
console.log(`source: ${source.commit.slice(0, 12)}${source.modified.length > 0 ? ` with ${source.modified.length} files changed` : ''}`);
const stack = await startChaosStack();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.log(`\n${signal}: stopping the servers${options.keep ? `; state kept in ${stack.dir}` : ''}`);
    void stack.stop(options.keep).finally(() => process.exit(130));
  });
}
console.log(`servers up in ${((Date.now() - startedAt) / 1000).toFixed(0)} s; state in ${stack.dir}`);

const rounds: RoundResult[] = [];
let failure: unknown;
try {
  const graph = await readNetworkGraph(NETWORK_DIR, 'chaos');
  const ledger = new Ec2CallLedger(stack.servers.ec2Endpoint);
  const hooks = { beforeEc2Kill: () => ledger.bank(), afterEc2Restart: () => ledger.restarted() };
  const faults = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, faultOf(kind, stack.servers, stack.controllers, hooks)])) as Record<
    FaultKind,
    Fault
  >;
  const context: RoundContext = {
    kubeconfigPath: stack.servers.kubeconfigPath,
    ec2Endpoint: stack.servers.ec2Endpoint,
    networkDir: NETWORK_DIR,
    objects: graph.objects,
    controllers: stack.controllers,
    faults,
    ledger,
    temporal: stack.temporal,
    random: (fault, nth) => roundRandom(options.seed, fault, nth),
    killWindows: new KillWindows(options.maxGapSeconds),
    deadlineSeconds: options.deadlineSeconds,
  };
  for (const round of withCarriedKills(plan)) {
    const nthOfFault = rounds.filter((r) => r.fault === round.fault).length + 1;
    const result = await runRound(context, { index: rounds.length + 1, fault: round.fault, nthOfFault, kills: round.kills() });
    rounds.push(result);
    round.made(result.apply.killsMade + result.delete.killsMade);
    console.log(progressLine(result));
  }
} catch (error) {
  failure = error;
}
if (interrupted) await new Promise(() => {}); // the signal handler exits

const lost = verdict(rounds);
const totalSeconds = (Date.now() - startedAt) / 1000;
console.log(`\n== chaos: examples/aws-network/, seed ${options.seed} ==`);
console.log(roundsTable(rounds));
console.log('');
console.log(totalsTable(rounds));
const findings = findingLines(rounds);
if (findings.length > 0) console.log(`\n${findings.join('\n')}`);
for (const fault of new Set(plan.map((r) => r.fault))) {
  const wanted = plan.filter((r) => r.fault === fault).reduce((sum, r) => sum + r.kills, 0);
  const made = rounds.filter((r) => r.fault === fault).reduce((sum, r) => sum + r.apply.killsMade + r.delete.killsMade, 0);
  if (made < wanted) console.log(`\nnote: ${made} of ${wanted} ${fault} kills made: the phases converged before the rest were due`);
}
const file = await writeResult('chaos', {
  date: new Date(startedAt).toISOString(),
  options,
  source,
  totalSeconds,
  rounds,
  machine: await machine(),
});
console.log(`\ntook ${(totalSeconds / 60).toFixed(1)} min; wrote ${file}`);
const keep = options.keep || lost !== '' || failure !== undefined;
await stack.stop(keep);
if (keep) console.log(`state kept in ${stack.dir} (logs, temporal.db, moto's journal)`);
if (failure !== undefined) {
  console.error(`\nthe run stopped early: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`);
  process.exit(2);
}
if (lost !== '') {
  console.error(`\nLOST: ${lost}`);
  process.exit(1);
}
console.log('\nnothing lost: 0 not ready, 0 duplicates, 0 missing, 0 leaks, 0 stuck, 0 DependencyViolation');

async function sourceState(): Promise<{ commit: string; modified: string[] }> {
  const git = async (...args: string[]) => (await runCommand('git', args, { cwd: repoRoot })).stdout.trim();
  try {
    const [commit, status] = await Promise.all([git('rev-parse', 'HEAD'), git('status', '--porcelain')]);
    return { commit, modified: status.split('\n').filter(Boolean) };
  } catch {
    return { commit: 'unknown (no git)', modified: [] };
  }
}

function describePlan(planned: PlannedRound[]): string {
  const byFault = new Map<FaultKind, { rounds: number; kills: number }>();
  for (const r of planned) {
    const sum = byFault.get(r.fault) ?? { rounds: 0, kills: 0 };
    byFault.set(r.fault, { rounds: sum.rounds + 1, kills: sum.kills + r.kills });
  }
  return [...byFault].map(([fault, { rounds: n, kills }]) => `${fault}: ${n} round${n === 1 ? '' : 's'}, ${kills} kills`).join('; ');
}

function progressLine(r: RoundResult): string {
  const l = lossesOf(r);
  const converge = (s: number | undefined) => (s === undefined ? 'never' : `${s.toFixed(1)} s`);
  return (
    `round ${r.index} (${r.fault}): kills ${r.apply.killsMade}+${r.delete.killsMade}; ` +
    `Ready ${converge(r.apply.convergeSeconds)} and gone ${converge(r.delete.convergeSeconds)} after the last kill; ` +
    `not ready ${l.notReady}, dup ${l.duplicates}, missing ${l.missing}, stuck ${l.stuck}, leaks ${l.leaks}, DV ${l.dependencyViolations}` +
    `${r.unexpectedExits.length > 0 ? `, ${r.unexpectedExits.length} unkilled exits` : ''}; ${r.seconds.toFixed(0)} s; ` +
    `last Ready ${r.lastToConverge.apply.join(', ') || '—'}, last gone ${r.lastToConverge.delete.join(', ') || '—'}`
  );
}
