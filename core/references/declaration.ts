// A typed reference, declared once on a kind (seed 000, "Attribute Referencer"). Everything
// else derives from this value: the CRD's `<field>Ref` / `<field>Selector` fields, the
// resolver, the watcher's wake-ups and the deletion guard.
import type { KindApi } from '../kind-api';

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
  /**
   * The kind cannot be created without the value, so the CRD requires the field, its Ref or its
   * Selector: a missing id is refused at admission rather than found at create.
   */
  required?: boolean;
}

/** What the field names derive from; schema rules that know only the field can use these too. */
export type ReferenceNames = Pick<ReferenceDeclaration, 'field' | 'list'>;

/**
 * Crossplane's names: `vpcId` → `vpcIdRef` / `vpcIdSelector`; a list `securityGroupIds` →
 * `securityGroupIdRefs` / `securityGroupIdSelector`.
 */
export function refFieldOf(declaration: ReferenceNames): string {
  return declaration.list ? `${singular(declaration.field)}Refs` : `${declaration.field}Ref`;
}

export function selectorFieldOf(declaration: ReferenceNames): string {
  return `${declaration.list ? singular(declaration.field) : declaration.field}Selector`;
}

/** The three ways to give the value: the field itself, its Ref(s) and its Selector. */
export function alternativesOf(declaration: ReferenceNames): [string, string, string] {
  return [declaration.field, refFieldOf(declaration), selectorFieldOf(declaration)];
}

/** `vpcId, vpcIdRef or vpcIdSelector`, for messages that ask the user to set one of them. */
export function describeAlternatives(declaration: ReferenceNames): string {
  const [field, ref, selector] = alternativesOf(declaration);
  return `${field}, ${ref} or ${selector}`;
}

const singular = (field: string): string => (field.endsWith('s') ? field.slice(0, -1) : field);
