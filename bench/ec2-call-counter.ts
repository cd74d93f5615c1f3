// Counts the EC2 calls a control plane makes, as moto saw them, and the time moto spent on them.
// moto itself keeps no request count, so stack/moto_with_journal.py keeps one when started with
// CHRONOPLANE_MOTO_COUNT_REQUESTS=1 in its environment (startMoto passes this process's
// environment on), keyed by the access key the request was signed with, the action and the
// error code. Give each control plane its own access key id and they can share one moto.
//
//   process.env[MOTO_COUNT_REQUESTS_ENV] = '1';   // before startMoto()
//   const before = await readEc2CallCounts(endpoint);
//   … run something …
//   const calls = summarizeEc2Calls(before, await readEc2CallCounts(endpoint), { accessKeyId: 'provider-aws' });

export const MOTO_COUNT_REQUESTS_ENV = 'CHRONOPLANE_MOTO_COUNT_REQUESTS';
const COUNTS_PATH = '/chronoplane/request-counts';

export interface Ec2CallCount {
  /** The access key id of the request's signature ("" if unsigned). */
  accessKey: string;
  /** The API action, e.g. CreateVpc ("" if none could be read). */
  action: string;
  /** The error code EC2 answered with, e.g. DependencyViolation; "" when it succeeded. */
  error: string;
  count: number;
  /** Seconds moto spent handling these requests (holding its lock), waiting for it not included. */
  seconds: number;
  /** CPU seconds of the threads that handled them: unlike `seconds`, not inflated by a busy machine. */
  cpuSeconds: number;
}

export interface Ec2CallSummary {
  total: number;
  byAction: Record<string, number>;
  /** Failed calls by error code. */
  errors: Record<string, number>;
  /** Failed calls by "Action: ErrorCode". */
  errorsByAction: Record<string, number>;
  dependencyViolations: number;
  /** Seconds moto spent on the calls, by action: what the local EC2 endpoint cost. */
  motoSecondsByAction: Record<string, number>;
}

/** The counts so far, since moto started. Throws if moto was started without the counter. */
export async function readEc2CallCounts(ec2Endpoint: string): Promise<Ec2CallCount[]> {
  const response = await fetch(new URL(COUNTS_PATH, ec2Endpoint));
  const body = await response.text();
  let parsed: { counts?: Ec2CallCount[] } | undefined;
  try {
    parsed = JSON.parse(body) as { counts?: Ec2CallCount[] };
  } catch {
    parsed = undefined;
  }
  if (!response.ok || !Array.isArray(parsed?.counts)) {
    throw new Error(
      `moto at ${ec2Endpoint} does not count requests (GET ${COUNTS_PATH} answered ${response.status}); ` +
        `start it with ${MOTO_COUNT_REQUESTS_ENV}=1 in its environment`,
    );
  }
  return parsed.counts;
}

/** No calls at all: what a summary starts from, and what summaries add up from. */
export const emptyEc2CallSummary = (): Ec2CallSummary => ({
  total: 0,
  byAction: {},
  errors: {},
  errorsByAction: {},
  dependencyViolations: 0,
  motoSecondsByAction: {},
});

/** The calls made between two readings, optionally only those signed with `accessKeyId`. */
export function summarizeEc2Calls(before: Ec2CallCount[], after: Ec2CallCount[], filter: { accessKeyId?: string } = {}): Ec2CallSummary {
  const keyOf = (c: Ec2CallCount) => JSON.stringify([c.accessKey, c.action, c.error]);
  const earlier = new Map(before.map((c) => [keyOf(c), c.count]));
  const earlierSeconds = new Map(before.map((c) => [keyOf(c), c.seconds]));
  const summary = emptyEc2CallSummary();
  for (const call of after) {
    if (filter.accessKeyId !== undefined && call.accessKey !== filter.accessKeyId) continue;
    const count = call.count - (earlier.get(keyOf(call)) ?? 0);
    if (count <= 0) continue;
    const action = call.action || '(unknown)';
    summary.total += count;
    summary.byAction[action] = (summary.byAction[action] ?? 0) + count;
    const seconds = call.seconds - (earlierSeconds.get(keyOf(call)) ?? 0);
    summary.motoSecondsByAction[action] = round((summary.motoSecondsByAction[action] ?? 0) + seconds);
    if (call.error) {
      summary.errors[call.error] = (summary.errors[call.error] ?? 0) + count;
      const key = `${action}: ${call.error}`;
      summary.errorsByAction[key] = (summary.errorsByAction[key] ?? 0) + count;
      if (call.error === 'DependencyViolation') summary.dependencyViolations += count;
    }
  }
  return summary;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
