// A managed kind's API identity: what its CRD, its workflow ids and its references name it by.
export interface KindApi {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  categories: string[];
  /** One line for `kubectl explain <kind>`. */
  description: string;
  /** Namespaced unless said otherwise; provider-kubernetes' Object is cluster-scoped. */
  scope?: 'Namespaced' | 'Cluster';
}
