// What every EC2 kind's bulk observation shares, without loading the SDK: resources are swept
// together per config (kind, namespace and name: two tenants' same-named ProviderConfigs are two
// scopes) and region, the two things an EC2 client is built from (ec2-client.ts), and a settled
// resource looks for itself only every six hours.
//
// The budget (issue 6): at most 1 EC2 call per settled resource per hour, drift still found
// within the poll interval. A kind's sweep runs every poll interval (60 s, so 60 times an
// hour) and reads 200 resources a call (100 for the kinds read through DescribeRouteTables,
// whose pages stop there); a safety-net pass costs what the kind's observe costs. Per settled
// resource and hour, with n resources of a kind in one ProviderConfig and region:
//
//   sweep        60 × ⌈n / 200⌉ / n     0.30 for n = 200, 1,000 or 10,000
//                60 × ⌈n / 100⌉ / n     0.60 for route tables, routes and associations (at most)
//   safety net   observe's calls / 6    VPC 3 calls → 0.50; every other kind 1 call → 0.17
//   total                              VPC 0.80; route tables, routes, associations 0.77; the rest 0.47
//
// A sweep's floor is one call a minute per kind and scope, shared by its n resources, so the
// budget holds from 120 VPCs (73 of any other kind) in a scope up; below that a scope costs
// 60 calls an hour per kind, a third of what a single VPC cost before sweeps (180).
import type { BulkObservation } from '#core/managed-kind';
import { providerConfigScopeKey } from '#runtime/provider-config';

/** Six hours: a settled resource's own pass, the safety net under its kind's sweep. */
export const SAFETY_NET_SECONDS = 6 * 60 * 60;

/**
 * Bulk observation for an EC2 kind. `unsweptFields`: the forProvider fields its observeMany
 * cannot read in bulk, checked only by the safety-net pass.
 */
export function ec2BulkObservation<F extends { region: string }>(unsweptFields: readonly string[] = []): BulkObservation<F> {
  return {
    scopeOf: (mr) => `${providerConfigScopeKey(mr)}/${mr.spec.forProvider.region}`,
    unsweptFields,
  };
}
