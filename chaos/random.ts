// A small seeded PRNG (mulberry32), so that a run's kill schedule can be drawn again from its
// seed. Math.random cannot be seeded, and a chaos run that finds something must be repeatable.

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, between: (min, max) => min + (max - min) * next() };
}

/**
 * The generator of one round: the run's seed mixed with the round's fault and its place among
 * that fault's rounds, so that `--only <fault> --seed S` draws the same waits for those rounds as
 * the full run with seed S did.
 */
export function roundRandom(seed: number, fault: string, nthOfFault: number): Random {
  let mixed = seed >>> 0;
  for (const char of `${fault}#${nthOfFault}`) mixed = Math.imul(mixed ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return seededRandom(mixed);
}

/** A seed for a run that names none: printed with the results, so that run can be repeated. */
export const freshSeed = (): number => Math.floor(Math.random() * 2 ** 31);
