// Every managed kind Chronoplane serves. Adding a kind means adding its folder and one line here.
import type { ManagedKind } from '#core/managed-kind';
import { vpcKind } from './aws/ec2/vpc';
import { subnetKind } from './aws/ec2/subnet';
import { internetGatewayKind } from './aws/ec2/internetgateway';
import { routeTableKind } from './aws/ec2/routetable';
import { routeKind } from './aws/ec2/route';
import { routeTableAssociationKind } from './aws/ec2/routetableassociation';
import { securityGroupKind } from './aws/ec2/securitygroup';
import { securityGroupRuleKind } from './aws/ec2/securitygrouprule';
import { addressKind } from './aws/ec2/address';
import { natGatewayKind } from './aws/ec2/natgateway';
import { keyPairKind } from './aws/ec2/keypair';
import { instanceKind } from './aws/ec2/instance';
import { namespacedObjectKind, objectKind } from './kubernetes/object';
import { clusterCollectionKind, namespacedCollectionKind } from './kubernetes/collection';
import { kubernetesApplicationKind } from './kubernetes/workload/application';
import { kubernetesApplicationResourceKind } from './kubernetes/workload/resource';

export const managedKinds: readonly ManagedKind[] = [
  vpcKind,
  subnetKind,
  internetGatewayKind,
  routeTableKind,
  routeKind,
  routeTableAssociationKind,
  securityGroupKind,
  securityGroupRuleKind,
  addressKind,
  natGatewayKind,
  keyPairKind,
  instanceKind,
  objectKind,
  namespacedObjectKind,
  clusterCollectionKind,
  namespacedCollectionKind,
  kubernetesApplicationKind,
  kubernetesApplicationResourceKind,
];

export function findKind(group: string, kind: string): ManagedKind | undefined {
  return managedKinds.find((k) => k.api.group === group && k.api.kind === kind);
}

export function kindFor(group: string, kind: string): ManagedKind {
  const found = findKind(group, kind);
  if (!found) throw new Error(`no managed kind ${kind}.${group} is registered`);
  return found;
}
