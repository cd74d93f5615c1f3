// The peer: the same kind of network through Crossplane's provider-aws v0.58.0, on a moto and a
// kube-apiserver of its own (so neither control plane's load shows in the other's figures).
// It binds :8080 for metrics whatever it is told, so only one can run at a time.
//
// provider-aws trusts that an EC2 resource is gone only 3 minutes after creating it (its
// creation grace period, for EC2's eventual consistency), so a delete right after Ready would
// mostly measure that wait: by default the run pauses 190 s between all Ready and the delete.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMoto } from '../../stack/moto';
import { ensureProviderAws, PROVIDER_AWS_VERSION, startProviderAws } from '../../stack/peers';
import { freePort } from '../../stack/ports';
import { ec2Inventory, formatLeftovers, inventoryAdded } from '../ec2-inventory';
import { formatSeconds, table } from '../measure';
import { instrumentMoto, phaseRows } from '../phase-probe';
import { runProviderAwsNetwork, type NetworkResult } from '../peers/provider-aws-network';
import { processesUnder } from '../process-cpu';
import { machine, writeResult } from '../results';

export interface ProviderAwsPeerOptions {
  pauseBeforeDeleteSeconds: number;
  keep: boolean;
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
}

export const PROVIDER_AWS_RESOURCES = 'VPC, 2 Subnets, InternetGateway, RouteTable with inline route and 2 associations';

export async function runProviderAwsPeer(options: ProviderAwsPeerOptions): Promise<ProviderAwsPeerResult> {
  instrumentMoto();
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
    const probe = { ec2Endpoint: moto.endpoint, accessKeyId: peer.accessKeyId, processes: await processesUnder(dir) };
    const inventoryBefore = await ec2Inventory(moto.endpoint);
    const network = await runProviderAwsNetwork(peer, { pauseBeforeDeleteMs: options.pauseBeforeDeleteSeconds * 1000, probe });
    const result: ProviderAwsPeerResult = {
      date: new Date().toISOString(),
      peer: `provider-aws ${PROVIDER_AWS_VERSION}`,
      buildSeconds,
      startSeconds,
      ...network,
      leftAtEc2: inventoryAdded(inventoryBefore, await ec2Inventory(moto.endpoint)),
    };

    console.log(`\n== Crossplane provider-aws ${PROVIDER_AWS_VERSION}: ${PROVIDER_AWS_RESOURCES} ==`);
    console.log(
      table([
        ['build (0 = cached) / peer start', `${buildSeconds.toFixed(1)} s / ${startSeconds.toFixed(1)} s`],
        ['resources', `${network.resources} (${PROVIDER_AWS_RESOURCES})`],
        ['apply to all Ready', formatSeconds(network.applyToAllReadySeconds)],
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
    console.log(`\nwrote ${await writeResult('provider-aws-network', { ...result, machine: await machine() })}`);
    if (options.keep) console.log(`kept ${dir} (provider log: ${peer.logFile})`);
    return result;
  } finally {
    await peer?.stop();
    await moto.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}
