// Scale: N VPCs applied at once to a fresh stack. Measures what users feel and what the stack
// costs: time until all are Ready, per-resource apply-to-Ready percentiles, watch-event-to-signal
// latency, worker and watcher memory, and Temporal history events per reconcile pass.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { workflowIdFor, refFor } from '../../runtime/managed-kind';
import { vpcApi } from '../../providers/aws/ec2/vpc/schema';
import { stateQuery } from '../../workflows/api';
import { startBenchStack } from '../chronoplane-stack';
import { percentile, RssSampler, summarizeLatency, table } from '../measure';
import { machine, writeResult } from '../results';
import { watchObjects } from '../watch-objects';

export interface VpcScaleOptions {
  count: number;
  keep: boolean;
}

const namespace = 'bench';
const steadyPollSeconds = 10;

export async function runVpcScale({ count, keep }: VpcScaleOptions): Promise<void> {
  const bench = await startBenchStack({ steadyPollSeconds, keep });
  const rss = new RssSampler(bench.pids);
  try {
    await bench.kubectl(['create', 'namespace', namespace]);
    const names = Array.from({ length: count }, (_, i) => `vpc-${String(i).padStart(4, '0')}`);
    const manifest = {
      apiVersion: 'v1',
      kind: 'List',
      items: names.map((name, i) => ({
        apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
        kind: 'VPC',
        metadata: { name, namespace },
        spec: { forProvider: { region: 'us-east-1', cidrBlock: `10.${i >> 8}.${i & 255}.0/24`, tags: { bench: 'apply-to-ready' } } },
      })),
    };

    const vpcs = await watchObjects(bench.servers.kubeconfigPath, [vpcApi], { namespace });
    let readyAt: Map<string, number>;
    let appliedAt: number;
    let applyReturnedAt: number;
    let allReadyAt: number;
    try {
      const allReady = vpcs.waitFor(() => vpcs.readyAt.size >= count, 600_000);
      rss.start();
      appliedAt = Date.now();
      await bench.kubectl(['apply', '-f', '-'], JSON.stringify(manifest));
      applyReturnedAt = Date.now();
      await allReady;
      allReadyAt = Date.now();
      readyAt = new Map(vpcs.readyAt);
    } finally {
      await vpcs.stop();
    }
    const perResource = [...readyAt.values()].map((t) => (t - appliedAt) / 1000);

    // History cost: the passes so far include the create; then one steady poll more.
    const sample = names.filter((_, i) => i % Math.max(1, Math.floor(count / 20)) === 0).slice(0, 20);
    const before = await historyAndPasses(bench.temporal, sample);
    await sleep((steadyPollSeconds * 2 + 2) * 1000);
    const after = await historyAndPasses(bench.temporal, sample);
    const steadyEventsPerPass = (after.events - before.events) / Math.max(1, after.passes - before.passes);

    const signalLatency = summarizeLatency(await (await fetch(`http://127.0.0.1:${bench.watcherMetricsPort}/metrics`)).text());
    const deleteStart = Date.now();
    await bench.kubectl(['delete', 'vpc', '--all', '-n', namespace, '--timeout=600s']);
    const deleteSeconds = (Date.now() - deleteStart) / 1000;
    rss.stop();

    const result = {
      date: new Date().toISOString(),
      count,
      machine: await machine(),
      seconds: {
        applyCommand: (applyReturnedAt - appliedAt) / 1000,
        timeToAllReady: (allReadyAt - appliedAt) / 1000,
        applyToReadyP50: percentile(perResource, 0.5),
        applyToReadyP95: percentile(perResource, 0.95),
        deleteAll: deleteSeconds,
      },
      watchEventToSignalMs: signalLatency,
      rssMiB: rss.summary(),
      historyEvents: {
        perPassIncludingCreate: before.events / Math.max(1, before.passes),
        perSteadyPass: steadyEventsPerPass,
        sampledWorkflows: sample.length,
      },
    };
    console.log(`\n== ${count} VPCs applied at once ==`);
    console.log(
      table([
        ['resources applied at once', String(count)],
        ['kubectl apply returned after', `${result.seconds.applyCommand.toFixed(2)} s`],
        ['time to all Ready', `${result.seconds.timeToAllReady.toFixed(2)} s`],
        ['apply-to-Ready p50 / p95', `${result.seconds.applyToReadyP50.toFixed(2)} s / ${result.seconds.applyToReadyP95.toFixed(2)} s`],
        [
          'watch event to signal p50 / p95 / p99',
          `${signalLatency.p50} / ${signalLatency.p95} / ${signalLatency.p99} ms (${signalLatency.count} signals)`,
        ],
        ['worker RSS peak / end', `${result.rssMiB.worker.peak} / ${result.rssMiB.worker.last} MiB`],
        ['watcher RSS peak / end', `${result.rssMiB.watcher.peak} / ${result.rssMiB.watcher.last} MiB`],
        ['history events per pass (incl. create)', result.historyEvents.perPassIncludingCreate.toFixed(1)],
        ['history events per steady pass', result.historyEvents.perSteadyPass.toFixed(1)],
        ['delete all (kubectl delete --all)', `${deleteSeconds.toFixed(2)} s`],
      ]),
    );
    console.log(`\nwrote ${await writeResult(`apply-to-ready-${count}`, result)}`);
  } finally {
    rss.stop();
    await bench.stop();
  }
}

async function historyAndPasses(client: Client, names: string[]): Promise<{ events: number; passes: number }> {
  let events = 0;
  let passes = 0;
  for (const name of names) {
    const handle = client.workflow.getHandle(workflowIdFor(refFor(vpcApi, namespace, name)));
    const [description, state] = await Promise.all([handle.describe(), handle.query(stateQuery)]);
    events += description.historyLength;
    passes += state.passes;
  }
  return { events, passes };
}
