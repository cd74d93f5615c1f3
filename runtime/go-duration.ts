// Go's time.ParseDuration, for annotations whose values Crossplane users write in Go's syntax
// ("90s", "1h30m", "1.5h"). Pure: no clock, no I/O.

const NANOSECONDS_PER_UNIT: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3, // U+00B5, as Go accepts
  μs: 1e3, // U+03BC, as Go accepts
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const TERM = /(\d*)(?:\.(\d*))?([^\d.]+)/y;

/** The duration in seconds, or a message saying why `text` is not a Go duration. */
export function parseGoDuration(text: string): { seconds: number } | { error: string } {
  const invalid = { error: `"${text}" is not a duration (write it as Go does, such as 30s, 10m or 1h30m)` };
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return { seconds: 0 };
  if (rest === '') return invalid;
  let nanoseconds = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < rest.length) {
    const match = TERM.exec(rest);
    if (!match) return invalid;
    const [, whole, fraction, unit] = match;
    const perUnit = NANOSECONDS_PER_UNIT[unit!];
    if (perUnit === undefined || (whole === '' && (fraction ?? '') === '')) return invalid;
    nanoseconds += Number(`${whole || '0'}.${fraction ?? ''}0`) * perUnit;
  }
  return { seconds: (sign * nanoseconds) / 1e9 };
}

/** Seconds as Go would print them, to the second: 90 → "1m30s". */
export function formatSeconds(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}
