// KubernetesApplicationResource (workload.crossplane.io/v1alpha1), served as seed 003 has it:
// one arbitrary Kubernetes object (`template`) for the KubernetesCluster its controlling
// KubernetesApplication is scheduled to, and the connection Secrets (`secrets`) to copy next to
// it there. Its status is upstream's too: `state`, `clusterRef`, and `remote`, the remote
// object's own .status verbatim (status.ts maps the engine's atProvider and conditions to them).
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, withRules, type CelRule } from '#core/schema';
import type { KindApi } from '#core/managed-kind';

export const kubernetesApplicationResourceApi: KindApi = {
  group: 'workload.crossplane.io',
  version: 'v1alpha1',
  kind: 'KubernetesApplicationResource',
  plural: 'kubernetesapplicationresources',
  singular: 'kubernetesapplicationresource',
  shortNames: [],
  // Upstream's: it is a workload, not a managed resource (`kubectl get managed` does not list it).
  categories: ['crossplane'],
  description: 'One Kubernetes object of a KubernetesApplication, submitted to the KubernetesCluster the application is scheduled to.',
  scope: 'Namespaced',
};

/**
 * Marks what a KubernetesApplicationResource made in its cluster (the templated object and the
 * Secrets it propagates) with its uid: it touches nothing that carries another uid or none.
 * A label on the propagated Secrets too, so that those no longer listed can be found and removed.
 */
export const RESOURCE_UID = 'kubernetesapplicationresource.workload.crossplane.io/uid';

const fixed = (field: string, rule: string): CelRule => ({
  rule,
  message: `${field} cannot be changed: delete and recreate the KubernetesApplicationResource to change it`,
});

/** The templated object: any kind, opaque but for the type and object metadata it must have. */
const Template = withRules(
  Type.Object(
    {
      apiVersion: DocString('API version of the object, such as apps/v1.', { minLength: 1, maxLength: 317 }),
      kind: DocString('Kind of the object, such as Deployment.', { minLength: 1, maxLength: 63 }),
      metadata: Type.Object(
        {
          name: DocString('Name of the object in the cluster.', { minLength: 1, maxLength: 253 }),
          namespace: Type.Optional(
            DocString('Namespace of the object in the cluster; a namespaced kind without one goes to default.', {
              minLength: 1,
              maxLength: 63,
            }),
          ),
        },
        { description: 'Object metadata: labels and annotations are kept as written.', 'x-kubernetes-preserve-unknown-fields': true },
      ),
    },
    {
      description:
        'A Kubernetes object to submit to the KubernetesCluster this resource is scheduled to. The cluster must understand its kind; ' +
        'Chronoplane requires only its type and object metadata. Its .status is copied to status.remote.',
      'x-kubernetes-preserve-unknown-fields': true,
    },
  ),
  // Another name or kind would be another object: the one already made would be orphaned.
  fixed('spec.template.apiVersion', 'self.apiVersion == oldSelf.apiVersion'),
  fixed('spec.template.kind', 'self.kind == oldSelf.kind'),
  fixed('spec.template.metadata.name', 'self.metadata.name == oldSelf.metadata.name'),
  // `namespace` is a CEL keyword, so Kubernetes' CEL names the field __namespace__; plain
  // `namespace` would be an unknown, unbounded field the API server refuses to cost.
  fixed(
    'spec.template.metadata.namespace',
    'has(self.metadata.__namespace__) == has(oldSelf.metadata.__namespace__) && ' +
      '(!has(self.metadata.__namespace__) || self.metadata.__namespace__ == oldSelf.metadata.__namespace__)',
  ),
);

export const KubernetesApplicationResourceSpec = Doc('The object to submit, and the Secrets it needs.', {
  template: Template,
  secrets: Type.Optional(
    Type.Array(Doc('A Secret in the namespace of this resource.', { name: DocString('Name of the Secret.', { minLength: 1 }) }), {
      description:
        'Connection Secrets the object depends on, in the namespace of this resource. Each is copied into the namespace of the ' +
        'template (default when it has none) as <this resource\u2019s name>-<secret name>, and again whenever it changes.',
    }),
  ),
});
/** The spec as stored: the template keeps every field it was given. */
export interface KubernetesApplicationResourceSpec {
  template: {
    apiVersion: string;
    kind: string;
    metadata: { name: string; namespace?: string; [field: string]: unknown };
    [field: string]: unknown;
  };
  secrets?: { name: string }[];
}

export const STATES = ['Pending', 'Scheduled', 'Submitted', 'Failed'] as const;
export type ResourceState = (typeof STATES)[number];

export const ClusterReference = Doc('The KubernetesCluster this resource is scheduled to.', {
  apiVersion: DocString('API version of the KubernetesCluster.'),
  kind: DocString('KubernetesCluster.'),
  namespace: DocString('Namespace of the KubernetesCluster: that of this resource.'),
  name: DocString('Name of the KubernetesCluster.'),
});
export type ClusterReference = Static<typeof ClusterReference>;

/** The kind's own status fields (CompatibleStatus), besides conditions. */
export const resourceStatusFields = {
  state: Type.Optional(
    Type.Union(
      STATES.map((s) => Type.Literal(s)),
      {
        description:
          'Pending: not scheduled to a cluster yet. Scheduled: scheduled, not submitted yet. Submitted: the object and its Secrets ' +
          'are in the cluster as specified. Failed: the last attempt failed (see the Synced condition).',
      },
    ),
  ),
  clusterRef: Type.Optional(ClusterReference),
  remote: Type.Optional(
    Type.Object({}, { description: 'The .status of the object in the cluster, verbatim.', 'x-kubernetes-preserve-unknown-fields': true }),
  ),
};

/** What the engine keeps as atProvider: the cluster and the remote status, without the derived state. */
export const ResourceObservation = Doc('What Chronoplane last saw.', {
  clusterRef: resourceStatusFields.clusterRef,
  remote: resourceStatusFields.remote,
});
export type ResourceObservation = { clusterRef?: ClusterReference; remote?: Record<string, unknown> };
