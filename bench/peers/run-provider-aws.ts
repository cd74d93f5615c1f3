// `npx tsx bench/peers/run-provider-aws.ts [--keep]`: builds Crossplane's provider-aws if
// needed, starts moto (with the request counter) and provider-aws on a kube-apiserver of its
// own, applies the benchmark's network through it once and deletes it, and prints the figures.
// --keep leaves the state directory (logs, kubeconfig) behind for a look; --pause-before-delete
// SECONDS waits between all Ready and the delete (provider-aws trusts that an EC2 resource is
// gone only 3 minutes after creating it, so an early delete measures mostly that wait).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startMoto } from '../../stack/moto';
import { ensureProviderAws, PROVIDER_AWS_VERSION, startProviderAws } from '../../stack/peers';
import { freePort } from '../../stack/ports';
import { formatCounts, MOTO_COUNT_REQUESTS_ENV, type Ec2CallSummary } from '../ec2-call-counter';
import { table } from '../measure';
import { runProviderAwsNetwork } from './provider-aws-network';

const { values } = parseArgs({
  options: { keep: { type: 'boolean', default: false }, 'pause-before-delete': { type: 'string', default: '0' } },
});
const pauseBeforeDeleteSeconds = Number(values['pause-before-delete']);

// startMoto hands this process's environment to moto.
process.env[MOTO_COUNT_REQUESTS_ENV] = '1';

const buildStart = Date.now();
await ensureProviderAws();
const buildSeconds = (Date.now() - buildStart) / 1000;

const dir = await mkdtemp(join(tmpdir(), 'chronoplane-peer-provider-aws-'));
const moto = await startMoto({ dir: join(dir, 'moto'), port: await freePort(), detached: false });
let peer: Awaited<ReturnType<typeof startProviderAws>> | undefined;
try {
  const startedAt = Date.now();
  peer = await startProviderAws({ dir: join(dir, 'provider-aws'), ec2Endpoint: moto.endpoint });
  const startSeconds = (Date.now() - startedAt) / 1000;
  const result = await runProviderAwsNetwork(peer, { pauseBeforeDeleteMs: pauseBeforeDeleteSeconds * 1000 });

  const calls = (summary: Ec2CallSummary | undefined): [string, string][] =>
    summary
      ? [
          ['  EC2 calls', `${summary.total}: ${formatCounts(summary.byAction)}`],
          ['  failed calls', formatCounts(summary.errorsByAction)],
          ['  DependencyViolation', String(summary.dependencyViolations)],
        ]
      : [];
  console.log(
    table([
      [`provider-aws ${PROVIDER_AWS_VERSION} build (0 = cached)`, `${buildSeconds.toFixed(1)} s`],
      ['peer start (kube-apiserver, CRDs, provider ready)', `${startSeconds.toFixed(1)} s`],
      ['resources', `${result.resources} (VPC, 2 Subnets, InternetGateway, RouteTable)`],
      ['apply to all Ready', `${result.applyToAllReadySeconds.toFixed(2)} s`],
      ...Object.entries(result.readyAfterSeconds).map(([key, seconds]): [string, string] => [
        `  ${key} Ready after`,
        `${seconds.toFixed(2)} s`,
      ]),
      ...calls(result.ec2Calls?.apply),
      [`delete to all gone (${pauseBeforeDeleteSeconds} s after all Ready)`, `${result.deleteToGoneSeconds.toFixed(2)} s`],
      ...calls(result.ec2Calls?.delete),
    ]),
  );
  console.log(`\n${JSON.stringify(result, null, 2)}`);
  if (values.keep) console.log(`\nkept ${dir} (provider log: ${peer.logFile})`);
} finally {
  await peer?.stop();
  await moto.stop();
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
