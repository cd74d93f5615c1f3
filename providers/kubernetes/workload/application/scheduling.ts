// Scheduling: which KubernetesCluster an application goes to. Kubernetes' label-selector
// semantics (matchLabels and matchExpressions all hold; an absent selector selects every
// cluster, as upstream's "leave it empty to match any"), and of the matches the first by name,
// so that the choice does not depend on the order a list or a watch returns. Pure.
import { describeLabelSelector, labelSelectorMatches, type LabelSelector } from '#runtime/label-selector';

type Labels = Readonly<Record<string, string>> | undefined;

export const matchesSelector = (selector: LabelSelector | undefined, labels: Labels): boolean =>
  labelSelectorMatches(selector ?? {}, labels ?? {});

/** In kubectl's `-l` syntax: `app=wordpress-demo,tier in (web,db),!legacy`; `(any)` for a selector that selects every cluster. */
export const describeSelector = (selector: LabelSelector | undefined): string => describeLabelSelector(selector ?? {});

export interface ClusterCandidate {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
}

/** The cluster to schedule to: the first by name among those the selector matches that are not being deleted. */
export function chooseCluster<C extends ClusterCandidate>(clusters: readonly C[], selector: LabelSelector | undefined): C | undefined {
  return clusters
    .filter((c) => !c.metadata.deletionTimestamp && matchesSelector(selector, c.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))[0];
}
