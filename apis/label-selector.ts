// metav1.LabelSelector as a TypeBox schema, checked at admission as far as CEL can: In and
// NotIn need values, Exists and DoesNotExist take none.
import { Type } from '@sinclair/typebox';
import { Doc, DocString, StringMap, withRules } from '#core/schema';
import { LABEL_LIMITS } from '#core/references/fields';

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;

const LabelSelectorRequirement = withRules(
  Doc('A label that a selected object must (or must not) carry.', {
    key: DocString('The label key.', { minLength: 1, maxLength: LABEL_LIMITS.maxKeyLength }),
    operator: Type.Union(
      OPERATORS.map((o) => Type.Literal(o)),
      { description: 'In, NotIn (the value is, or is not, one of values), Exists or DoesNotExist (the key).' },
    ),
    values: Type.Optional(
      Type.Array(Type.String({ maxLength: LABEL_LIMITS.maxValueLength }), {
        description: 'The values for In and NotIn; none for Exists and DoesNotExist.',
        maxItems: 64,
      }),
    ),
  }),
  {
    rule: "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
    message: 'In and NotIn need values; Exists and DoesNotExist take none',
  },
);

/** Kubernetes' LabelSelector: every matchLabels entry and every matchExpressions requirement must hold. */
export const LabelSelectorSchema = (description: string) =>
  Doc(description, {
    matchLabels: Type.Optional(StringMap('Labels the object must carry, with these values.', LABEL_LIMITS)),
    matchExpressions: Type.Optional(
      Type.Array(LabelSelectorRequirement, { description: 'Requirements on the object\u2019s labels.', maxItems: 32 }),
    ),
  });

/** Our extension to Crossplane's ClusterProviderConfig: which namespaces may use it. */
export const NamespaceSelector = LabelSelectorSchema(
  'Which namespaces may use this ClusterProviderConfig, by their labels (a Chronoplane extension). Absent: every namespace, as ' +
    'upstream. A managed resource in a namespace it does not select is refused with Synced=False.',
);
