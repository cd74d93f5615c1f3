// One phase of a round (the apply, or the delete): kills at random moments until the phase's
// goal holds, then the time it took to get there after the last kill. Each kill comes a random
// 0 to maxGap seconds (see KillWindows) after the previous restart finished (or after the phase
// began), so every kill hits a process that really ran; a kill is never made once the goal holds,
// and what was not made is handed back for the next phase.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault } from './faults';
import type { Random } from './random';

interface PhaseOptions {
  kills: number;
  fault: Fault;
  random: Random;
  maxGapSeconds: number;
  /** Give up this long after the last kill (or the start, without kills). */
  deadlineSeconds: number;
  /** Whether the phase's goal holds: all Ready, or all gone. A rejection counts as "not yet". */
  converged(): Promise<boolean>;
  /** Called once a poll: restarts a controller that exited without being killed. */
  supervise(): Promise<void>;
  /** How often the goal is checked; a second unless a test says otherwise. */
  pollMs?: number;
}

export interface PhaseOutcome {
  killsMade: number;
  /** Seconds after the phase's start. */
  killedAt: number[];
  /** Seconds each restart took, kill to serving again. */
  restartSeconds: number[];
  /** Seconds from the last kill (or the start) to the goal; undefined when it never held. */
  convergeSeconds?: number;
  /** Seconds from the start to the goal. */
  totalSeconds?: number;
}

const POLL_MS = 1_000;

export async function runPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  const startedAt = Date.now();
  const outcome: PhaseOutcome = { killsMade: 0, killedAt: [], restartSeconds: [] };
  const pollMs = options.pollMs ?? POLL_MS;
  const gap = () => options.random.between(0, options.maxGapSeconds) * 1000;
  let nextKillAt = startedAt + gap();
  let lastKillAt = startedAt;
  for (;;) {
    await options.supervise();
    const done = await options.converged().catch(() => false);
    const now = Date.now();
    if (done) {
      outcome.convergeSeconds = (now - lastKillAt) / 1000;
      outcome.totalSeconds = (now - startedAt) / 1000;
      return outcome;
    }
    if (outcome.killsMade < options.kills && now >= nextKillAt) {
      lastKillAt = now;
      outcome.killedAt.push((now - startedAt) / 1000);
      await options.fault.kill();
      outcome.killsMade += 1;
      await options.fault.restart();
      outcome.restartSeconds.push((Date.now() - now) / 1000);
      nextKillAt = Date.now() + gap();
      continue;
    }
    if (outcome.killsMade >= options.kills && now - lastKillAt > options.deadlineSeconds * 1000) return outcome;
    const killsLeft = outcome.killsMade < options.kills;
    await sleep(killsLeft ? Math.max(0, Math.min(pollMs, nextKillAt - now)) : pollMs);
  }
}

/**
 * How far apart kills may come in each kind of phase: --max-gap, or the shortest such phase seen
 * so far when that is shorter. A delete with nothing to wait for is over in two seconds; kills
 * drawn from four would mostly come too late, and the run would count kills that never happened
 * during anything.
 */
export class KillWindows {
  private readonly shortest = new Map<string, number>();

  constructor(private readonly maxGapSeconds: number) {}

  /** Seconds within which each kill of a `phase` comes, after the phase's start or the last restart. */
  of(phase: string): number {
    return Math.min(this.maxGapSeconds, this.shortest.get(phase) ?? Infinity);
  }

  /** A phase of this kind took `totalSeconds` to converge (undefined: it never did). */
  took(phase: string, totalSeconds: number | undefined): void {
    if (totalSeconds === undefined) return;
    this.shortest.set(phase, Math.min(totalSeconds, this.shortest.get(phase) ?? Infinity));
  }
}
