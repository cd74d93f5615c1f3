// `npm run bench`: every benchmark scenario, one after another, each on servers of its own.
//
//   --scenario all | vpc | object | application | network | provider-aws | moto
//                               (default all: vpc, object, application, network, then the peer)
//   --count N                   VPCs in the vpc and moto scenarios, Objects in the object one
//                               (default 1,000, or BENCH_COUNT)
//   --templates N               application: templates in the KubernetesApplication (default 50;
//                               a third each ConfigMaps, Services, Deployments)
//   --namespace-template        application: the first template is a Namespace holding the others
//                               (the ordering waves measured too), instead of all in `default`
//   --idle-window S             vpc, object: seconds of the idle measurement after settling
//                               (default 120 for vpc, 60 for object)
//   --settle S                  vpc, object: seconds between all Ready and the idle window (default 30)
//   --timeout S                 vpc, object: seconds to wait for all Ready, and for all gone (default
//                               600, or 0.6 s per resource if more); application: for each of its
//                               phases (default 600); past it the figures so far print
//   --no-limit                  vpc, object: skip the minimal-controller-work limit
//   --no-plain                  moto: skip moto as shipped (slow: half an hour at 10,000 VPCs)
//   --no-peer                   skip provider-aws in `all`, and provider-kubernetes' row in object
//   --pause-before-delete S     provider-aws: seconds between all Ready and the delete (default 190,
//                               past its 3-minute creation grace period)
//   --embedded-watcher          vpc, object, network: run the watcher inside the worker process
//   --kubectl                   vpc: create the VPCs with one `kubectl apply` and delete them with one
//                               `kubectl delete --all`, as a user would, instead of 32 at a time
//                               through the API, as the limit does (bench/bench-vpcs.ts)
//   --realistic-latency         network, provider-aws: call EC2 through a proxy in front of moto that
//                               answers with realistic latencies (bench/ec2-latencies.ts: a NAT
//                               gateway pending a minute), and report apply against their sum along
//                               the heaviest chain
//   --temporal-server           vpc, object: run on Temporal's own server with PostgreSQL, as
//                               operators do (stack/temporal-server.ts), instead of the dev server
//   --keep                      leave each scenario's state directory behind (logs, kubeconfig)
//
// Each scenario prints a table and writes JSON to bench/results/; with both network runs, a
// side-by-side table follows. `object` puts Chronoplane's Object kind, Crossplane's
// provider-kubernetes v1.2.1 and the minimal-work limit side by side, each on servers of its
// own. `application` applies one KubernetesApplication of --templates templates to a target
// cluster until it is Submitted N/N, updates all its templates at once, and deletes it
// (bench/scenarios/application.ts). `moto` (not in `all`) measures the local EC2 endpoint
// alone: what each kind of request costs it with --count VPCs in it, with and without our
// lookup shortcuts.
import { parseArgs } from 'node:util';
import { runNetworkChain, type NetworkChainResult } from './scenarios/network-chain';
import { runProviderAwsPeer, type ProviderAwsPeerResult } from './scenarios/provider-aws-peer';
import { runMotoRequestCost } from './scenarios/moto-request-cost';
import { runApplicationScale } from './scenarios/application';
import { runObjectScale } from './scenarios/object-scale';
import { runVpcScale } from './scenarios/vpc-scale';
import { runWorkers } from './scenarios/workers';
import { sideBySideTable } from './side-by-side';

const SCENARIOS = ['all', 'vpc', 'object', 'application', 'network', 'provider-aws', 'moto', 'workers'] as const;
type Scenario = (typeof SCENARIOS)[number];

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    count: { type: 'string', default: process.env.BENCH_COUNT ?? '1000' },
    templates: { type: 'string', default: '50' },
    'namespace-template': { type: 'boolean', default: false },
    // No default here: each scenario has its own.
    'idle-window': { type: 'string' },
    settle: { type: 'string', default: '30' },
    timeout: { type: 'string' },
    'no-peer': { type: 'boolean', default: false },
    'no-limit': { type: 'boolean', default: false },
    'no-plain': { type: 'boolean', default: false },
    'pause-before-delete': { type: 'string', default: '190' },
    keep: { type: 'boolean', default: false },
    'embedded-watcher': { type: 'boolean', default: false },
    'realistic-latency': { type: 'boolean', default: false },
    kubectl: { type: 'boolean', default: false },
    'temporal-server': { type: 'boolean', default: false },
  },
});
const scenario = values.scenario as Scenario;
if (!SCENARIOS.includes(scenario)) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}, not ${values.scenario}`);
const runs = (name: Exclude<Scenario, 'all'>) =>
  scenario === name || (scenario === 'all' && name !== 'moto' && name !== 'workers' && !(name === 'provider-aws' && values['no-peer']));
const keep = values.keep;
const count = Number(values.count);
/** What the vpc and object scenarios share; the idle window's default is each one's own. */
const scale = {
  count,
  settleSeconds: Number(values.settle),
  timeoutSeconds: Number(values.timeout ?? Math.max(600, Math.ceil(count * 0.6))),
  limit: !values['no-limit'],
  keep,
  temporal: values['temporal-server'] ? ('server' as const) : ('dev' as const),
};

if (runs('moto')) await runMotoRequestCost({ count, plain: !values['no-plain'] });
// One worker, then two, on fresh servers each: what a second worker gains and costs (docs/scaling.md).
if (runs('workers')) await runWorkers({ count, workerCounts: [1, 2], timeoutSeconds: scale.timeoutSeconds, keep });
if (runs('vpc')) {
  await runVpcScale({
    ...scale,
    idleWindowSeconds: Number(values['idle-window'] ?? 120),
    embeddedWatcher: values['embedded-watcher'],
    userPart: values.kubectl ? 'kubectl' : 'api',
  });
}
if (runs('object')) {
  await runObjectScale({
    ...scale,
    idleWindowSeconds: Number(values['idle-window'] ?? 60),
    peer: !values['no-peer'],
    embeddedWatcher: values['embedded-watcher'],
  });
}
if (runs('application')) {
  await runApplicationScale({
    templates: Number(values.templates),
    namespaceTemplate: values['namespace-template'],
    timeoutSeconds: Number(values.timeout ?? 600),
    keep,
  });
}
let ours: NetworkChainResult | undefined;
const realisticLatency = values['realistic-latency'];
if (runs('network')) ours = await runNetworkChain({ keep, embeddedWatcher: values['embedded-watcher'], realisticLatency });
// After ours, never alongside: it needs the CPU to itself as much as we did, and port 8080.
let peer: ProviderAwsPeerResult | undefined;
if (runs('provider-aws')) {
  peer = await runProviderAwsPeer({ pauseBeforeDeleteSeconds: Number(values['pause-before-delete']), keep, realisticLatency });
}
if (ours && peer) {
  console.log('\n== The network side by side ==');
  console.log(sideBySideTable(ours, peer));
}
