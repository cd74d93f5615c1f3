// A round's EC2 calls as moto counted them (bench/ec2-call-counter.ts), by the access key the
// default ClusterProviderConfig signs with. moto keeps its counts in memory, so a round that
// kills moto reads them right before each kill and adds up the pieces; calls made in the
// milliseconds between that read and the kill are not counted.
import { emptyEc2CallSummary, readEc2CallCounts, summarizeEc2Calls, type Ec2CallCount, type Ec2CallSummary } from '#bench/ec2-call-counter';

/** stack/cluster-bootstrap.ts gives ClusterProviderConfig `default` this key; the example names no other. */
const DEFAULT_PROVIDER_CONFIG_ACCESS_KEY_ID = 'testing';

export const emptySummary = emptyEc2CallSummary;

/** Two summaries of calls added up, as one. */
export function addSummaries(a: Ec2CallSummary, b: Ec2CallSummary): Ec2CallSummary {
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    const sum = { ...x };
    for (const [key, value] of Object.entries(y)) sum[key] = (sum[key] ?? 0) + value;
    return sum;
  };
  return {
    total: a.total + b.total,
    byAction: add(a.byAction, b.byAction),
    errors: add(a.errors, b.errors),
    errorsByAction: add(a.errorsByAction, b.errorsByAction),
    dependencyViolations: a.dependencyViolations + b.dependencyViolations,
    motoSecondsByAction: add(a.motoSecondsByAction, b.motoSecondsByAction),
  };
}

export class Ec2CallLedger {
  private counted = emptySummary();
  private segmentStart: Ec2CallCount[] = [];

  constructor(
    private readonly ec2Endpoint: string,
    private readonly accessKeyId = DEFAULT_PROVIDER_CONFIG_ACCESS_KEY_ID,
  ) {}

  /** Starts counting from now. */
  async begin(): Promise<void> {
    this.counted = emptySummary();
    this.segmentStart = await readEc2CallCounts(this.ec2Endpoint);
  }

  /** Adds what was counted since the last reading; call it right before moto is killed. */
  async bank(): Promise<void> {
    const now = await readEc2CallCounts(this.ec2Endpoint);
    this.counted = addSummaries(this.counted, summarizeEc2Calls(this.segmentStart, now, { accessKeyId: this.accessKeyId }));
    this.segmentStart = now;
  }

  /** moto started again, with its counts at zero. */
  restarted(): void {
    this.segmentStart = [];
  }

  /** Everything counted since begin(). */
  async end(): Promise<Ec2CallSummary> {
    await this.bank();
    return this.counted;
  }
}
