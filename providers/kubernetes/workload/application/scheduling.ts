// Scheduling: which KubernetesCluster an application goes to. Kubernetes' label-selector
// semantics (matchLabels and matchExpressions all hold; an absent selector selects every
// cluster, as upstream's "leave it empty to match any"), and of the matches the first by name,
// so that the choice does not depend on the order a list or a watch returns. Pure.
import type { LabelSelector } from './schema';

type Labels = Readonly<Record<string, string>> | undefined;

export function matchesSelector(selector: LabelSelector | undefined, labels: Labels): boolean {
  const valueOf = (key: string) => (labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined);
  const labelsHold = Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => valueOf(key) === value);
  return labelsHold && (selector?.matchExpressions ?? []).every((r) => requirementHolds(r, valueOf(r.key)));
}

type Requirement = NonNullable<LabelSelector['matchExpressions']>[number];

function requirementHolds({ operator, values = [] }: Requirement, value: string | undefined): boolean {
  switch (operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
  }
}

/** In kubectl's `-l` syntax: `app=wordpress-demo,tier in (web,db),!legacy`; `(any)` for a selector that selects every cluster. */
export function describeSelector(selector: LabelSelector | undefined): string {
  const terms = [
    ...Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`),
    ...(selector?.matchExpressions ?? []).map(({ key, operator, values = [] }) => {
      if (operator === 'Exists') return key;
      if (operator === 'DoesNotExist') return `!${key}`;
      return `${key} ${operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`;
    }),
  ];
  return terms.length > 0 ? terms.join(',') : '(any)';
}

export interface ClusterCandidate {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
}

/** The cluster to schedule to: the first by name among those the selector matches that are not being deleted. */
export function chooseCluster<C extends ClusterCandidate>(clusters: readonly C[], selector: LabelSelector | undefined): C | undefined {
  return clusters
    .filter((c) => !c.metadata.deletionTimestamp && matchesSelector(selector, c.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))[0];
}
