// Helpers that keep TypeBox schemas inside the Kubernetes "structural schema" subset
// (every node typed, maps as additionalProperties, no $ref), so the same object that types
// our TypeScript code can be emitted verbatim into a CRD's openAPIV3Schema.
import { Type, type TSchema, type TString, type TObject, type TProperties, type ObjectOptions } from '@sinclair/typebox';

/** A CEL rule attached to a schema node, as `x-kubernetes-validations` wants it. */
export interface CelRule {
  rule: string;
  message: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** Marks a field as settable at creation only: the API server rejects a later change. */
export function immutable<T extends TSchema>(schema: T, fieldName: string): T {
  return withRules(schema, { rule: 'self == oldSelf', message: `${fieldName} is immutable` });
}

export function withRules<T extends TSchema>(schema: T, ...rules: CelRule[]): T {
  const existing = (schema['x-kubernetes-validations'] as CelRule[] | undefined) ?? [];
  return { ...schema, 'x-kubernetes-validations': [...existing, ...rules] };
}

/** A string-to-string map, such as AWS tags or Kubernetes labels. */
export function StringMap(description: string, limits: { maxEntries: number; maxKeyLength: number; maxValueLength: number }) {
  // Bounds keep CEL rules on the map within the API server's cost budget.
  const map = Type.Record(Type.String({ maxLength: limits.maxKeyLength }), Type.String({ maxLength: limits.maxValueLength }), {
    description,
    maxProperties: limits.maxEntries,
  });
  // A structural schema has no place for a key schema (the key's maxLength above types our
  // code but is dropped from the CRD), so the API server checks key length with CEL instead.
  return withRules(map, {
    rule: `self.all(k, size(k) <= ${limits.maxKeyLength})`,
    message: `keys must be at most ${limits.maxKeyLength} characters`,
  });
}

/** An object whose fields are all documented; `kubectl explain` shows the descriptions. */
export function Doc<P extends TProperties>(description: string, properties: P, options: ObjectOptions = {}): TObject<P> {
  return Type.Object(properties, { description, additionalProperties: false, ...options });
}

export function DocString(description: string, options: Parameters<typeof Type.String>[0] = {}): TString {
  return Type.String({ description, ...options });
}
