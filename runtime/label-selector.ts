// Kubernetes' metav1.LabelSelector semantics, pure: every matchLabels entry and every
// matchExpressions requirement must hold; an empty selector selects everything. Used where a
// selector decides who may use something (a ClusterProviderConfig's namespaceSelector), so an
// operator this code does not know selects nothing rather than everything.

type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export function labelSelectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const valueOf = (key: string) => (Object.hasOwn(labels, key) ? labels[key] : undefined);
  const labelsHold = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => valueOf(key) === value);
  return labelsHold && (selector.matchExpressions ?? []).every((r) => requirementHolds(r, valueOf(r.key)));
}

function requirementHolds({ operator, values = [] }: LabelSelectorRequirement, value: string | undefined): boolean {
  switch (operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

/** In kubectl's `-l` syntax: `team=a,tier in (web,db),!legacy`; `(any)` for an empty selector. */
export function describeLabelSelector(selector: LabelSelector): string {
  const terms = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`),
    ...(selector.matchExpressions ?? []).map(({ key, operator, values = [] }) => {
      if (operator === 'Exists') return key;
      if (operator === 'DoesNotExist') return `!${key}`;
      return `${key} ${operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`;
    }),
  ];
  return terms.length > 0 ? terms.join(',') : '(any)';
}
