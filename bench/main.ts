// `npm run bench`: every benchmark scenario, one after another, each on servers of its own.
//
//   --scenario all | vpc | network | provider-aws   (default all: vpc, network, then the peer)
//   --count N                   VPCs applied at once in the vpc scenario (default 200, or BENCH_COUNT)
//   --no-peer                   skip provider-aws in `all`
//   --pause-before-delete S     provider-aws: seconds between all Ready and the delete (default 190,
//                               past its 3-minute creation grace period)
//   --keep                      leave each scenario's state directory behind (logs, kubeconfig)
//
// Each scenario prints a table and writes JSON to bench/results/; with both network runs, a
// side-by-side table follows.
import { parseArgs } from 'node:util';
import { runNetworkChain, type NetworkChainResult } from './scenarios/network-chain';
import { runProviderAwsPeer, type ProviderAwsPeerResult } from './scenarios/provider-aws-peer';
import { runVpcScale } from './scenarios/vpc-scale';
import { sideBySideTable } from './side-by-side';

const SCENARIOS = ['all', 'vpc', 'network', 'provider-aws'] as const;
type Scenario = (typeof SCENARIOS)[number];

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    count: { type: 'string', default: process.env.BENCH_COUNT ?? '200' },
    'no-peer': { type: 'boolean', default: false },
    'pause-before-delete': { type: 'string', default: '190' },
    keep: { type: 'boolean', default: false },
  },
});
const scenario = values.scenario as Scenario;
if (!SCENARIOS.includes(scenario)) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}, not ${values.scenario}`);
const runs = (name: Exclude<Scenario, 'all'>) =>
  scenario === name || (scenario === 'all' && !(name === 'provider-aws' && values['no-peer']));
const keep = values.keep;

if (runs('vpc')) await runVpcScale({ count: Number(values.count), keep });
let ours: NetworkChainResult | undefined;
if (runs('network')) ours = await runNetworkChain({ keep });
// After ours, never alongside: it needs the CPU to itself as much as we did, and port 8080.
let peer: ProviderAwsPeerResult | undefined;
if (runs('provider-aws')) peer = await runProviderAwsPeer({ pauseBeforeDeleteSeconds: Number(values['pause-before-delete']), keep });
if (ours && peer) {
  console.log('\n== The network side by side ==');
  console.log(sideBySideTable(ours, peer));
}
