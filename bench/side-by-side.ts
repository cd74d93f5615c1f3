// Our network next to provider-aws' in one table. The two networks differ (18 resources against
// 5: provider-aws inlines the route and the associations in its RouteTable, and moto refuses its
// SecurityGroup), so counts are also shown per resource.
import { formatSeconds, table } from './measure';
import type { PhaseFigures } from './phase-probe';
import type { NetworkChainResult } from './scenarios/network-chain';
import { providerAwsResources, type ProviderAwsPeerResult } from './scenarios/provider-aws-peer';

export function sideBySideTable(ours: NetworkChainResult, peer: ProviderAwsPeerResult): string {
  const calls = (phase: PhaseFigures | undefined, resources: number) =>
    phase ? `${phase.ec2Calls.total} (${(phase.ec2Calls.total / resources).toFixed(1)} per resource)` : '—';
  const violations = (phases: { apply: PhaseFigures; delete: PhaseFigures } | undefined) =>
    phases ? `${phases.apply.ec2Calls.dependencyViolations} / ${phases.delete.ec2Calls.dependencyViolations}` : '—';
  const motoShare = (phase: PhaseFigures | undefined) => (phase ? `${Math.round(phase.motoCpuShare * 100)}% of a core` : '—');
  const left = (inventory: Record<string, string[]>) =>
    Object.keys(inventory).length === 0 ? 'nothing' : Object.keys(inventory).join(', ');
  return table([
    ['', 'Chronoplane', peer.peer],
    ['resources', `${ours.resources} (examples/aws-network/)`, `${peer.resources} (${providerAwsResources(peer)})`],
    ['apply to all Ready', formatSeconds(ours.applyToAllReadySeconds), formatSeconds(peer.applyToAllReadySeconds)],
    ...realisticRows(ours, peer),
    [
      '  limit: create latencies along the heaviest chain',
      `${formatSeconds(ours.chainLimitSeconds)} (${ours.chain.length} deep)`,
      'not measured (VPC → Subnet → RouteTable, 3 deep)',
    ],
    [
      '  wake-up gap after the last dependency, max',
      formatSeconds(Math.max(...ours.edges.filter((edge) => edge.last).map((edge) => edge.gapSeconds))),
      'not measured',
    ],
    ['  EC2 calls', calls(ours.phases.apply, ours.resources), calls(peer.phases?.apply, peer.resources)],
    ['  moto busy', motoShare(ours.phases.apply), motoShare(peer.phases?.apply)],
    ['delete sent', 'right after all Ready', `${peer.pauseBeforeDeleteSeconds} s after all Ready (its 3-minute creation grace period)`],
    ['delete to all gone', formatSeconds(ours.deleteToGoneSeconds), formatSeconds(peer.deleteToGoneSeconds)],
    ['  EC2 calls', calls(ours.phases.delete, ours.resources), calls(peer.phases?.delete, peer.resources)],
    ['DependencyViolation (apply / delete)', violations(ours.phases), violations(peer.phases)],
    ['left at the EC2 endpoint', left(ours.leftAtEc2), left(peer.leftAtEc2)],
  ]);
}

/** With realistic latencies on both sides: each one's apply against its heaviest chain's modeled latencies. */
function realisticRows(ours: NetworkChainResult, peer: ProviderAwsPeerResult): string[][] {
  const theirs = peer.realisticLatency;
  const mine = ours.realisticLatency;
  if (!mine && !theirs) return [];
  const against = (figures: { seconds: number; ratio: number; chain: string[] } | undefined) =>
    figures
      ? `${formatSeconds(figures.seconds)} (${figures.chain.length} deep); apply ${figures.ratio.toFixed(3)}× of it`
      : 'not run with realistic latencies';
  return [['  realistic EC2 latencies along the heaviest chain', against(mine), against(theirs)]];
}
