// The reference fields of the managed-resource API, in Crossplane's shapes: typed references
// (`vpcIdRef`, `vpcIdSelector`, generated from a kind's declarations) and generic references
// (`spec.references[]`: seed 002's `fromObject` + `toFieldPath`, and provider-kubernetes'
// `patchesFrom` and `dependsOn`).
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Doc, DocString, withRules, type CelRule } from '../schema';
import {
  alternativesOf,
  describeAlternatives,
  refFieldOf,
  selectorFieldOf,
  type ReferenceDeclaration,
  type ReferenceNames,
} from './declaration';
import { FIELD_PATH_PATTERN } from './fieldpath';

export const ReferencePolicy = Doc('How the reference is resolved.', {
  resolution: Type.Optional(
    Type.Union([Type.Literal('Required'), Type.Literal('Optional')], {
      description: 'Required (the default) waits until the reference resolves; Optional proceeds without it.',
    }),
  ),
  resolve: Type.Optional(
    Type.Union([Type.Literal('Always'), Type.Literal('IfNotPresent')], {
      description:
        'Always (the default, as seed 000 says: the reference wins over the raw value) resolves on every pass; IfNotPresent resolves only while the field is empty.',
    }),
  ),
});
export type ReferencePolicy = Static<typeof ReferencePolicy>;

export const LABEL_LIMITS = { maxEntries: 64, maxKeyLength: 317, maxValueLength: 63 };

const Reference = (description: string) =>
  Doc(description, {
    name: DocString('Name of the referenced object, in this object\u2019s namespace.', { minLength: 1, maxLength: 253 }),
    policy: Type.Optional(ReferencePolicy),
  });

const Selector = (description: string) =>
  Doc(description, {
    matchLabels: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: LABEL_LIMITS.maxValueLength }), {
        description: 'Selects objects that carry all of these labels.',
        maxProperties: LABEL_LIMITS.maxEntries,
      }),
    ),
    matchControllerRef: Type.Optional(
      Type.Boolean({ description: 'Selects only objects with the same controller reference as this object.' }),
    ),
    policy: Type.Optional(ReferencePolicy),
  });

export interface TypedReference {
  name: string;
  policy?: ReferencePolicy;
}
export interface ReferenceSelector {
  matchLabels?: Record<string, string>;
  matchControllerRef?: boolean;
  policy?: ReferencePolicy;
}

/**
 * CEL that holds when the field has a value or a reference the resolver will fill it from:
 * `has(self.vpcId) || has(self.vpcIdRef) || has(self.vpcIdSelector)`. For forProvider-level
 * rules, such as "exactly one of subnetId and gatewayId", that must count the generated fields.
 */
export function celHasValueOrReference(names: ReferenceNames): string {
  return alternativesOf(names)
    .map((field) => `has(self.${field})`)
    .join(' || ');
}

/**
 * forProvider plus the `…Ref(s)` and `…Selector` fields of every declared reference, and the
 * forProvider-level rules those references need: a required reference, and an immutable id
 * that a reference fills.
 */
export function withReferenceFields(forProvider: TObject, declarations: readonly ReferenceDeclaration[] = []): TObject {
  if (declarations.length === 0) return forProvider;
  const properties: TProperties = { ...forProvider.properties };
  for (const d of declarations) Object.assign(properties, referenceFields(d));
  // Required references first, so the kind's own rules keep their place after them.
  const requiredRules: CelRule[] = declarations
    .filter((d) => d.required)
    .map((d) => ({ rule: celHasValueOrReference(d), message: `one of ${describeAlternatives(d)} is required` }));
  const immutabilityRules: CelRule[] = [];
  for (const d of declarations) {
    const field = properties[d.field];
    if (!field || !isImmutable(field)) continue;
    // An immutable id that a reference fills: the resolver must be able to overwrite a raw id
    // the user also gave (seed 000: the reference wins), so the rule moves up to forProvider,
    // where it can see the reference; the reference itself becomes immutable, so the id can
    // only ever change to what that one reference names.
    const ref = refFieldOf(d);
    const selector = selectorFieldOf(d);
    properties[d.field] = withoutImmutability(field);
    properties[ref] = withRules(properties[ref]!, { rule: IMMUTABLE_RULE, message: `${ref} is immutable, as ${d.field} is` });
    immutabilityRules.push({
      rule: `!has(oldSelf.${d.field}) || !has(self.${d.field}) || self.${d.field} == oldSelf.${d.field} || has(self.${ref}) || has(self.${selector})`,
      message: `${d.field} is immutable; only ${ref} or ${selector} may fill it in`,
    });
  }
  const options = withoutProperties(forProvider);
  const existing = (options['x-kubernetes-validations'] as CelRule[] | undefined) ?? [];
  const all = [...requiredRules, ...existing, ...immutabilityRules];
  if (all.length > 0) options['x-kubernetes-validations'] = all;
  return Type.Object(properties, options);
}

/** The `…Ref(s)` and `…Selector` fields of one declaration. */
function referenceFields(d: ReferenceDeclaration): TProperties {
  const target = d.to.kind;
  const ref = refFieldOf(d);
  return {
    [ref]: d.list
      ? Type.Optional(
          Type.Array(Reference(`A reference to a ${target}.`), {
            description: `References to ${target}s whose ${describeSource(d)} fill ${d.field}; they win over ${d.field}.`,
            maxItems: 64,
          }),
        )
      : Type.Optional(Reference(`A reference to the ${target} whose ${describeSource(d)} fills ${d.field}; it wins over ${d.field}.`)),
    [selectorFieldOf(d)]: Type.Optional(
      Selector(
        d.list
          ? `Selects ${target}s in this namespace to fill ${ref}; used while ${ref} is empty.`
          : `Selects exactly one ${target} in this namespace to fill ${ref}; used while ${ref} is empty. Zero matches waits; two or more is an error.`,
      ),
    ),
  };
}

const IMMUTABLE_RULE = 'self == oldSelf';
const isImmutable = (schema: TSchema) => rulesOf(schema).some((r) => r.rule === IMMUTABLE_RULE);
const rulesOf = (schema: TSchema) => (schema['x-kubernetes-validations'] as CelRule[] | undefined) ?? [];

function withoutImmutability<T extends TSchema>(schema: T): T {
  const rules = rulesOf(schema).filter((r) => r.rule !== IMMUTABLE_RULE);
  const { 'x-kubernetes-validations': _v, ...rest } = schema as Record<string, unknown>;
  return (rules.length > 0 ? { ...rest, 'x-kubernetes-validations': rules } : rest) as T;
}

const describeSource = (d: ReferenceDeclaration) => (d.fromFieldPath ? `field ${d.fromFieldPath}` : 'ID (its external name)');

function withoutProperties(schema: TObject): Record<string, unknown> {
  const { properties: _p, required: _r, type: _t, ...options } = schema as unknown as Record<string, unknown>;
  return options;
}

const ObjectCoordinates = {
  apiVersion: DocString('API version of the referenced object, such as ec2.aws.chronoplane.io/v1alpha1 or v1.', { minLength: 1 }),
  kind: DocString('Kind of the referenced object.', { minLength: 1 }),
  name: DocString('Name of the referenced object.', { minLength: 1 }),
  namespace: Type.Optional(DocString('Namespace of the referenced object; defaults to this object\u2019s namespace.')),
};

/**
 * Crossplane's field path syntax (core/references/fieldpath.ts), checked at admission so a
 * malformed path is refused when written rather than reported at resolution.
 */
const FieldPath = (description: string) =>
  withRules(DocString(description, { minLength: 1, maxLength: 512 }), {
    rule: `self.matches(r'''${FIELD_PATH_PATTERN}''')`,
    message: 'must be a field path such as spec.forProvider.cidrBlock, data.key or metadata.labels[app.kubernetes.io/name]',
  });

export const GenericReference = withRules(
  Doc('A dependency on another object, and optionally a value to copy from it.', {
    fromObject: Type.Optional(
      Doc('Seed 002\u2019s form: copy fieldPath of this object to toFieldPath (counted from this object\u2019s root). Blocking.', {
        ...ObjectCoordinates,
        fieldPath: FieldPath('The field to read, such as status.atProvider.vpcId or data.region.'),
      }),
    ),
    patchesFrom: Type.Optional(
      Doc('provider-kubernetes\u2019 form: copy fieldPath of this object to toFieldPath, counted from spec.forProvider. Blocking.', {
        ...ObjectCoordinates,
        fieldPath: FieldPath('The field to read.'),
      }),
    ),
    dependsOn: Type.Optional(
      Doc('A non-blocking dependency: creation does not wait, but the object is not deleted while this one exists.', ObjectCoordinates),
    ),
    toFieldPath: Type.Optional(
      FieldPath(
        'Where the value goes. With fromObject it counts from this object\u2019s root (spec.forProvider.cidrBlock); with patchesFrom from spec.forProvider, and defaults to fieldPath.',
      ),
    ),
  }),
  {
    rule: '(has(self.fromObject) ? 1 : 0) + (has(self.patchesFrom) ? 1 : 0) + (has(self.dependsOn) ? 1 : 0) == 1',
    message: 'each reference has exactly one of fromObject, patchesFrom and dependsOn',
  },
  { rule: '!has(self.fromObject) || has(self.toFieldPath)', message: 'fromObject needs toFieldPath' },
  {
    // Resolution writes nothing outside spec either; this says so when the object is written.
    rule: "!has(self.fromObject) || !has(self.toFieldPath) || self.toFieldPath.startsWith('spec.') || self.toFieldPath.startsWith('spec[')",
    message: 'fromObject writes only into this object\u2019s spec: its toFieldPath starts with spec. (metadata and status are not written)',
  },
  { rule: '!has(self.dependsOn) || !has(self.toFieldPath)', message: 'dependsOn copies nothing, so it takes no toFieldPath' },
);
export type GenericReference = Static<typeof GenericReference>;

export const GenericReferences = Type.Array(GenericReference, {
  description: 'Generic references to other objects, resolved in order before anything is sent to the provider.',
  maxItems: 32,
});
