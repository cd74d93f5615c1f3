// `npm run chaos` flags, parsed into the run's options and its plan of rounds. Pure, so the
// defaults and the arithmetic of kills per round have unit tests of their own.
import { parseArgs } from 'node:util';
import { freshSeed } from './random';

export const FAULT_KINDS = ['worker', 'temporal', 'apiserver', 'ec2', 'watcher'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ChaosOptions {
  /** Worker SIGKILLs over all the worker rounds. */
  kills: number;
  killsPerRound: number;
  /** SIGKILLs in the one round of each other fault kind. */
  faultKills: number;
  /** The fault kinds to run rounds of, in run order. */
  only: FaultKind[];
  seed: number;
  /** Each kill comes a random 0 to maxGap seconds after the previous restart (or the phase's start). */
  maxGapSeconds: number;
  /** A phase not converged this long after its last kill (or its start) counts its objects as not ready or stuck. */
  deadlineSeconds: number;
  /** Leave the state directory behind even when nothing was lost. */
  keep: boolean;
}

export const USAGE = `npm run chaos -- [flags]

  --kills N             worker SIGKILLs over all worker rounds (default 200)
  --kills-per-round K   worker kills per round, half while applying, half while deleting (default 10)
  --rounds R            worker rounds instead: kills per round = ceil(kills / R)
  --fault-kills F       kills in the one round of each other fault (default 3)
  --only LIST           fault kinds to run, comma-separated: ${FAULT_KINDS.join(', ')} (default all)
  --seed S              seed of the random waits between kills (default: a fresh one, printed)
  --max-gap S           most seconds from a restart to the next kill (default 4; less once a phase of the kind converged sooner)
  --deadline S          seconds after a phase's last kill before its objects count as not ready or stuck (default 300)
  --keep                keep the state directory (kept anyway when something was lost)
`;

export function parseChaosOptions(args: string[], seed: () => number = freshSeed): ChaosOptions | 'help' {
  const { values } = parseArgs({
    args,
    options: {
      kills: { type: 'string', default: '200' },
      'kills-per-round': { type: 'string' },
      rounds: { type: 'string' },
      'fault-kills': { type: 'string', default: '3' },
      only: { type: 'string' },
      seed: { type: 'string' },
      'max-gap': { type: 'string', default: '4' },
      deadline: { type: 'string', default: '300' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const kills = count('--kills', values.kills);
  if (values.rounds !== undefined && values['kills-per-round'] !== undefined) {
    throw new Error('give --rounds or --kills-per-round, not both');
  }
  const rounds = values.rounds === undefined ? undefined : count('--rounds', values.rounds, 1);
  const killsPerRound =
    rounds === undefined ? count('--kills-per-round', values['kills-per-round'] ?? '10', 1) : Math.max(1, Math.ceil(kills / rounds));
  return {
    kills,
    killsPerRound,
    faultKills: count('--fault-kills', values['fault-kills']),
    only: values.only === undefined ? [...FAULT_KINDS] : faultKinds(values.only),
    seed: values.seed === undefined ? seed() : count('--seed', values.seed),
    maxGapSeconds: seconds('--max-gap', values['max-gap']),
    deadlineSeconds: seconds('--deadline', values.deadline),
    keep: values.keep,
  };
}

function faultKinds(list: string): FaultKind[] {
  const named = list.split(',').map((name) => name.trim());
  const unknown = named.filter((name) => !(FAULT_KINDS as readonly string[]).includes(name));
  if (unknown.length > 0 || named.length === 0) {
    throw new Error(`--only takes ${FAULT_KINDS.join(', ')}, not ${unknown.join(', ') || 'nothing'}`);
  }
  // Run order is always the documented one, whatever order they were named in.
  return FAULT_KINDS.filter((kind) => named.includes(kind));
}

function count(flag: string, text: string, min = 0): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} takes a whole number of at least ${min}, not ${text}`);
  return n;
}

function seconds(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} takes a positive number of seconds, not ${text}`);
  return n;
}
