// The peer: the same kind of network through Crossplane's provider-aws v0.58.0, on a moto and a
// kube-apiserver of its own (so neither control plane's load shows in the other's figures).
// It binds :8080 for metrics whatever it is told, so only one can run at a time.
//
// provider-aws trusts that an EC2 resource is gone only 3 minutes after creating it (its
// creation grace period, for EC2's eventual consistency), so a delete right after Ready would
// mostly measure that wait: by default the run pauses 190 s between all Ready and the delete.
//
// With realistic latencies, it calls EC2 through the same proxy as ours does
// (bench/ec2-latency-proxy.ts), and its network gains our heaviest chain's NAT gateway, so that
// both wait on the same pending minute.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMoto } from '#stack/moto';
import { ensureProviderAws, PROVIDER_AWS_VERSION, startProviderAws } from '../peers/provider-aws';
import { freePort } from '#stack/ports';
import { ec2Inventory, formatLeftovers, inventoryAdded } from '../ec2-inventory';
import { minimalCreateSeconds, REALISTIC_EC2_LATENCIES } from '../ec2-latencies';
import { startEc2LatencyProxy, type Ec2LatencyProxy } from '../ec2-latency-proxy';
import { formatSeconds, table } from '../measure';
import { instrumentMoto, phaseRows } from '../phase-probe';
import { runProviderAwsNetwork, type NetworkResult } from '../peers/provider-aws-network';
import { processesUnder } from '../process-cpu';
import { machine, writeResult } from '../results';

interface ProviderAwsPeerOptions {
  pauseBeforeDeleteSeconds: number;
  keep: boolean;
  /** Call EC2 through the realistic-latency proxy, with the NAT gateway in the network. */
  realisticLatency?: boolean;
}

export interface ProviderAwsPeerResult extends NetworkResult {
  date: string;
  peer: string;
  /** 0 when the build was cached. */
  buildSeconds: number;
  /** kube-apiserver, CRDs, provider ready. */
  startSeconds: number;
  /** Ids present after the delete that were not there before the apply; {} means nothing leaked. */
  leftAtEc2: Record<string, string[]>;
  /** With realistic latencies: its heaviest chain's modeled latencies, and apply to all Ready against them. */
  realisticLatency?: { chain: string[]; seconds: number; ratio: number; callsThroughProxy: number };
}

const PROVIDER_AWS_RESOURCES = 'VPC, 2 Subnets, InternetGateway, RouteTable with inline route and 2 associations';
const PROVIDER_AWS_NAT_RESOURCES = `${PROVIDER_AWS_RESOURCES}; Address, NATGateway, private RouteTable with inline route`;
/**
 * Its heaviest chain with the NAT gateway, by kind. The private route table's route is inline,
 * so the least it waits after the gateway is that route's create, as our Route's.
 */
const NAT_CHAIN = ['VPC', 'Subnet', 'NATGateway', 'Route'] as const;

export function providerAwsResources(result: Pick<ProviderAwsPeerResult, 'realisticLatency'>): string {
  return result.realisticLatency ? PROVIDER_AWS_NAT_RESOURCES : PROVIDER_AWS_RESOURCES;
}

export async function runProviderAwsPeer(options: ProviderAwsPeerOptions): Promise<ProviderAwsPeerResult> {
  instrumentMoto();
  const buildStart = Date.now();
  await ensureProviderAws();
  const buildSeconds = (Date.now() - buildStart) / 1000;

  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-peer-provider-aws-'));
  const moto = await startMoto({ dir: join(dir, 'moto'), port: await freePort(), detached: false });
  let peer: Awaited<ReturnType<typeof startProviderAws>> | undefined;
  let proxy: Ec2LatencyProxy | undefined;
  try {
    if (options.realisticLatency) proxy = await startEc2LatencyProxy({ upstream: moto.endpoint, latencies: REALISTIC_EC2_LATENCIES });
    const startedAt = Date.now();
    peer = await startProviderAws({ dir: join(dir, 'provider-aws'), ec2Endpoint: proxy?.endpoint ?? moto.endpoint });
    const startSeconds = (Date.now() - startedAt) / 1000;
    const probe = { ec2Endpoint: moto.endpoint, accessKeyId: peer.accessKeyId, processes: await processesUnder(dir) };
    const inventoryBefore = await ec2Inventory(moto.endpoint);
    const network = await runProviderAwsNetwork(peer, {
      pauseBeforeDeleteMs: options.pauseBeforeDeleteSeconds * 1000,
      probe,
      natGateway: options.realisticLatency,
    });
    const result: ProviderAwsPeerResult = {
      date: new Date().toISOString(),
      peer: `provider-aws ${PROVIDER_AWS_VERSION}`,
      buildSeconds,
      startSeconds,
      ...network,
      leftAtEc2: inventoryAdded(inventoryBefore, await ec2Inventory(moto.endpoint)),
      ...(proxy && { realisticLatency: realisticFigures(network.applyToAllReadySeconds, proxy) }),
    };
    const resources = providerAwsResources(result);

    const mode = proxy ? ', realistic EC2 latencies' : '';
    console.log(`\n== Crossplane provider-aws ${PROVIDER_AWS_VERSION}: ${resources}${mode} ==`);
    console.log(
      table([
        ['build (0 = cached) / peer start', `${buildSeconds.toFixed(1)} s / ${startSeconds.toFixed(1)} s`],
        ['resources', `${network.resources} (${resources})`],
        ['apply to all Ready', formatSeconds(network.applyToAllReadySeconds)],
        ...(result.realisticLatency
          ? [
              [
                'realistic EC2 latencies: their sum along the heaviest chain',
                `${formatSeconds(result.realisticLatency.seconds)} (${result.realisticLatency.chain.join(' → ')})`,
              ],
              ['  apply to all Ready against it', `${result.realisticLatency.ratio.toFixed(3)}×`],
              ['  EC2 calls through the latency proxy, apply to gone', String(result.realisticLatency.callsThroughProxy)],
            ]
          : []),
        ...Object.entries(network.readyAfterSeconds).map(([key, seconds]) => [`  ${key} Ready after`, formatSeconds(seconds)]),
        ...(network.phases ? phaseRows(network.phases.apply) : []),
        [
          `delete to all gone (delete sent ${network.pauseBeforeDeleteSeconds} s after all Ready)`,
          formatSeconds(network.deleteToGoneSeconds),
        ],
        ...(network.phases ? phaseRows(network.phases.delete) : []),
        ['left at the EC2 endpoint', formatLeftovers(result.leftAtEc2)],
      ]),
    );
    const name = proxy ? 'provider-aws-network-realistic-latency' : 'provider-aws-network';
    console.log(`\nwrote ${await writeResult(name, { ...result, machine: await machine() })}`);
    if (options.keep) console.log(`kept ${dir} (provider log: ${peer.logFile})`);
    return result;
  } finally {
    await peer?.stop();
    await proxy?.stop();
    await moto.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}

function realisticFigures(applySeconds: number, proxy: Ec2LatencyProxy): NonNullable<ProviderAwsPeerResult['realisticLatency']> {
  const callsThroughProxy = proxy.calls();
  if (callsThroughProxy === 0) throw new Error('no EC2 call went through the latency proxy: provider-aws was not pointed at it');
  const seconds = NAT_CHAIN.reduce((sum, kind) => sum + minimalCreateSeconds(REALISTIC_EC2_LATENCIES, kind), 0);
  return { chain: [...NAT_CHAIN], seconds, ratio: applySeconds / seconds, callsThroughProxy };
}
