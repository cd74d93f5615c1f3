// A typed reference, declared once on a kind (seed 000, "Attribute Referencer"). Everything
// else derives from this value: the CRD's `<field>Ref` / `<field>Selector` fields, the
// resolver, the watcher's wake-ups and the deletion guard.
import type { KindApi } from '../managed-kind';

export interface ReferenceDeclaration {
  /** The forProvider field that receives the resolved value, such as `vpcId`. */
  field: string;
  /** The kind referred to; references stay within the referring object's namespace. */
  to: KindApi;
  /**
   * Where the value comes from on the target, as a field path; by default its
   * crossplane.io/external-name annotation (for a VPC, its vpc-id).
   */
  fromFieldPath?: string;
  /** A list field (`securityGroupIds`): the value is the list of every referenced target's value. */
  list?: boolean;
}

/**
 * Crossplane's names: `vpcId` → `vpcIdRef` / `vpcIdSelector`; a list `securityGroupIds` →
 * `securityGroupIdRefs` / `securityGroupIdSelector`.
 */
export function refFieldOf(declaration: ReferenceDeclaration): string {
  return declaration.list ? `${singular(declaration.field)}Refs` : `${declaration.field}Ref`;
}

export function selectorFieldOf(declaration: ReferenceDeclaration): string {
  return `${declaration.list ? singular(declaration.field) : declaration.field}Selector`;
}

const singular = (field: string): string => (field.endsWith('s') ? field.slice(0, -1) : field);
