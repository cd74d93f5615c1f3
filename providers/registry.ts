// Every managed kind Chronoplane serves. Adding a kind means adding its folder and one line here.
import type { ManagedKind } from '../runtime/managed-kind';
import { vpcKind } from './aws/ec2/vpc';

export const managedKinds: readonly ManagedKind[] = [vpcKind];

export function kindFor(group: string, kind: string): ManagedKind {
  const found = managedKinds.find((k) => k.api.group === group && k.api.kind === kind);
  if (!found) throw new Error(`no managed kind ${kind}.${group} is registered`);
  return found;
}
