// Drift correction as a user sees it: change some VPCs out of band (someone removes a tag in the
// console), then watch EC2 until each carries its tag again. The benchmark's own client does
// both, so none of it counts as the control plane's calls.
import { DeleteTagsCommand, DescribeVpcsCommand } from '@aws-sdk/client-ec2';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchEc2Client } from './bench-ec2';
import { BENCH_TAG } from './bench-vpcs';

const DRIFT_ACCESS_KEY_ID = 'bench-drift';
/** How often EC2 is looked at: the resolution of the figures. */
const CHECK_EVERY_MS = 500;
/** DescribeVpcs takes many ids at once; this many keeps each answer small. */
const IDS_PER_CHECK = 200;

interface DriftCorrection {
  changed: number;
  /** Seconds from the out-of-band change until EC2 showed the tag again, for each corrected VPC. */
  correctedAfterSeconds: number[];
  /** VPCs still without their tag when the wait ended. */
  uncorrected: string[];
}

/** Removes the bench tag from every VPC in `vpcIds` at once, then waits up to `timeoutMs` for each to get it back. */
export async function measureDriftCorrection(ec2Endpoint: string, vpcIds: readonly string[], timeoutMs: number): Promise<DriftCorrection> {
  const ec2 = benchEc2Client(ec2Endpoint, DRIFT_ACCESS_KEY_ID);
  try {
    const changedAt = Date.now();
    await ec2.send(new DeleteTagsCommand({ Resources: [...vpcIds], Tags: [{ Key: BENCH_TAG.key }] }));
    const waiting = new Set(vpcIds);
    const correctedAfterSeconds: number[] = [];
    while (waiting.size > 0 && Date.now() - changedAt < timeoutMs) {
      await sleep(CHECK_EVERY_MS);
      for (const ids of chunks([...waiting], IDS_PER_CHECK)) {
        const { Vpcs } = await ec2.send(new DescribeVpcsCommand({ VpcIds: ids }));
        const seenAt = Date.now();
        for (const vpc of Vpcs ?? []) {
          if (!vpc.Tags?.some((tag) => tag.Key === BENCH_TAG.key && tag.Value === BENCH_TAG.value)) continue;
          waiting.delete(vpc.VpcId!);
          correctedAfterSeconds.push((seenAt - changedAt) / 1000);
        }
      }
    }
    return { changed: vpcIds.length, correctedAfterSeconds, uncorrected: [...waiting] };
  } finally {
    ec2.destroy();
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}
