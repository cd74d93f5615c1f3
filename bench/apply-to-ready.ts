// `npm run bench [-- --count N]`: applies N VPCs at once to a fresh local stack and measures
// what users feel and what the stack costs: time until all are Ready, per-resource
// apply-to-Ready percentiles, watch-event-to-signal latency, worker and watcher memory, and
// Temporal history events per reconcile pass. Prints a table and writes JSON to bench/results/.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { Client, Connection } from '@temporalio/client';
import { ensureInstalled } from '../stack/install';
import { startTestStack } from '../stack/test-stack';
import { startController, stopController } from '../stack/controllers';
import { freePort } from '../stack/ports';
import { runCommand } from '../stack/run-command';
import { workflowIdFor, refFor } from '../runtime/managed-kind';
import { vpcApi } from '../providers/aws/ec2/vpc/schema';
import { stateQuery } from '../workflows/api';
import { percentile, RssSampler, summarizeLatency, table } from './measure';

const { values } = parseArgs({
  options: { count: { type: 'string', default: process.env.BENCH_COUNT ?? '200' }, keep: { type: 'boolean', default: false } },
});
const count = Number(values.count);
const namespace = 'bench';
const steadyPollSeconds = 10;

await ensureInstalled();
const dir = await mkdtemp(join(tmpdir(), 'chronoplane-bench-'));
const stack = await startTestStack({ dir, bootstrap: true });
const [workerMetricsPort, watcherMetricsPort] = [await freePort(), await freePort()];
const environment = {
  temporalAddress: stack.temporalAddress,
  temporalNamespace: stack.temporalNamespace,
  kubeconfigPath: stack.kubeconfigPath,
  extra: {
    CHRONOPLANE_WORKER_METRICS_PORT: String(workerMetricsPort),
    CHRONOPLANE_WATCHER_METRICS_PORT: String(watcherMetricsPort),
    CHRONOPLANE_POLL_STEADY_SECONDS: String(steadyPollSeconds),
    LOG_LEVEL: 'warn',
  },
};
// BENCH_WORKER_NODE_OPTIONS (e.g. `--import ./profile.mjs`) goes to the worker only, for profiling.
const workerNodeOptions: Record<string, string> = process.env.BENCH_WORKER_NODE_OPTIONS
  ? { NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS }
  : {};
const worker = await startController(dir, 'worker', { ...environment, extra: { ...environment.extra, ...workerNodeOptions } });
const watcher = await startController(dir, 'watcher', environment);
const rss = new RssSampler({ worker: worker.pid, watcher: watcher.pid });
const kubectl = (args: string[], input?: string) => runCommand('kubectl', ['--kubeconfig', stack.kubeconfigPath, ...args], { input });
const connection = await Connection.connect({ address: stack.temporalAddress });
const temporal = new Client({ connection, namespace: stack.temporalNamespace });

try {
  await kubectl(['create', 'namespace', namespace]);
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

  const readyAt = new Map<string, number>();
  const allReady = watchUntilAllReady(stack.kubeconfigPath, names.length, readyAt);
  rss.start();
  const appliedAt = Date.now();
  await kubectl(['apply', '-f', '-'], JSON.stringify(manifest));
  const applyReturnedAt = Date.now();
  await allReady;
  const allReadyAt = Date.now();
  const perResource = [...readyAt.values()].map((t) => (t - appliedAt) / 1000);

  // History cost: the passes so far include the create; then one steady poll more.
  const sample = names.filter((_, i) => i % Math.max(1, Math.floor(count / 20)) === 0).slice(0, 20);
  const before = await historyAndPasses(temporal, sample);
  await new Promise((r) => setTimeout(r, (steadyPollSeconds * 2 + 2) * 1000));
  const after = await historyAndPasses(temporal, sample);
  const steadyEventsPerPass = (after.events - before.events) / Math.max(1, after.passes - before.passes);

  const signalLatency = summarizeLatency(await (await fetch(`http://127.0.0.1:${watcherMetricsPort}/metrics`)).text());
  const deleteStart = Date.now();
  await kubectl(['delete', 'vpc', '--all', '-n', namespace, '--timeout=600s']);
  const deleteSeconds = (Date.now() - deleteStart) / 1000;
  rss.stop();

  const result = {
    date: new Date().toISOString(),
    count,
    machine: { cores: (await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length, node: process.version },
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
  const resultsDir = join(import.meta.dirname, 'results');
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `apply-to-ready-${count}-${result.date.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(result, null, 2));
  console.log(`\nwrote ${file}`);
} finally {
  rss.stop();
  await connection.close();
  await Promise.allSettled([stopController(dir, 'worker'), stopController(dir, 'watcher')]);
  await stack.stop();
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}

/** Resolves when `expected` VPCs in the namespace have been seen with Ready=True. */
async function watchUntilAllReady(kubeconfigPath: string, expected: number, readyAt: Map<string, number>): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  let request: AbortController | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      new Watch(kc)
        .watch(
          `/apis/${vpcApi.group}/${vpcApi.version}/namespaces/${namespace}/${vpcApi.plural}`,
          {},
          (_type, obj: { metadata: { name: string }; status?: { conditions?: { type: string; status: string }[] } }) => {
            const ready = obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
            if (ready && !readyAt.has(obj.metadata.name)) readyAt.set(obj.metadata.name, Date.now());
            if (readyAt.size >= expected) resolve();
          },
          (error) => (readyAt.size >= expected ? resolve() : reject(error ?? new Error('the watch ended before all were Ready'))),
        )
        .then((started) => (request = started), reject);
    });
  } finally {
    request?.abort();
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
