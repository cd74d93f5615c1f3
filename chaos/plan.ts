// The plan of a run: which rounds, how many kills each, and where the kills go that a round
// could not make because its phases converged first. Pure, with unit tests of its own.
import type { ChaosOptions, FaultKind } from './options';

/** One round of the run: the example applied and deleted once, with `kills` of one fault kind. */
export interface PlannedRound {
  fault: FaultKind;
  kills: number;
}

/**
 * The worker's kills spread over rounds of killsPerRound (the last takes the remainder), then one
 * round of each other fault kind named. No worker rounds when --kills is 0.
 */
export function planRounds(options: Pick<ChaosOptions, 'kills' | 'killsPerRound' | 'faultKills' | 'only'>): PlannedRound[] {
  const rounds: PlannedRound[] = [];
  for (const fault of options.only) {
    if (fault !== 'worker') {
      rounds.push({ fault, kills: options.faultKills });
      continue;
    }
    for (let left = options.kills; left > 0; left -= options.killsPerRound) {
      rounds.push({ fault, kills: Math.min(left, options.killsPerRound) });
    }
  }
  return rounds;
}

/** A round's kills split between its phases: the apply gets the odd one, as creates are where most can go wrong. */
export function splitKills(kills: number): { apply: number; delete: number } {
  return { apply: Math.ceil(kills / 2), delete: Math.floor(kills / 2) };
}

/** A round as the run makes it: its kills, and what it reports back once done. */
interface ScheduledRound {
  fault: FaultKind;
  /** The kills for its apply and its delete, owed ones included. */
  kills(): { apply: number; delete: number };
  /** How many it made; the rest is owed to the next round of its fault. */
  made(n: number): void;
}

/**
 * The planned rounds, each with the kills an earlier round of the same fault could not make
 * (its phases converged first) added to its apply. Kills still owed after a fault's last planned
 * round get extra rounds of that fault: as many as were planned, and at least three.
 */
export function* withCarriedKills(planned: PlannedRound[]): Generator<ScheduledRound> {
  const owed = new Map<FaultKind, number>();
  const roundOf = (fault: FaultKind, kills: number) => {
    const split = splitKills(kills);
    const given = { apply: split.apply + (owed.get(fault) ?? 0), delete: split.delete };
    return { fault, kills: () => given, made: (n: number) => owed.set(fault, given.apply + given.delete - n) };
  };
  for (const [i, round] of planned.entries()) {
    yield roundOf(round.fault, round.kills);
    if (planned[i + 1]?.fault === round.fault) continue;
    const extraRounds = Math.max(3, planned.filter((r) => r.fault === round.fault).length);
    for (let extra = 0; extra < extraRounds && (owed.get(round.fault) ?? 0) > 0; extra++) yield roundOf(round.fault, 0);
  }
}
