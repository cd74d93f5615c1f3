// KubernetesApplication (workload.crossplane.io/v1alpha1), served as seed 003 has it: templates
// of KubernetesApplicationResources, scheduled as one unit to the KubernetesCluster that
// `clusterSelector` picks. Its status is upstream's: `state`, `clusterRef`, `desiredResources`
// and `submittedResources` (status.ts derives them from the engine's atProvider and conditions).
// Whatever the API server can check is checked at admission, so that an invalid template
// rejects the whole application (seed 003) instead of failing one resource later.
import { Type, type Static } from '@sinclair/typebox';
import { LABEL_LIMITS } from '#core/references/fields';
import { Doc, DocString, StringMap, withRules, type CelRule } from '#core/schema';
import type { KindApi } from '#core/managed-kind';
import { LabelSelectorSchema } from '#apis/label-selector';
import type { LabelSelector } from '#runtime/label-selector';
import { ClusterReference, KubernetesApplicationResourceSpec } from '../resource/schema';

export const kubernetesApplicationApi: KindApi = {
  group: 'workload.crossplane.io',
  version: 'v1alpha1',
  kind: 'KubernetesApplication',
  plural: 'kubernetesapplications',
  singular: 'kubernetesapplication',
  shortNames: [],
  // Upstream's: a workload, not a managed resource (`kubectl get managed` does not list it).
  categories: ['crossplane'],
  description:
    'An application: KubernetesApplicationResources made from its templates, all submitted to the one KubernetesCluster in its ' +
    'namespace that its clusterSelector picks.',
  scope: 'Namespaced',
};

/** A KubernetesApplicationResource's name: a DNS subdomain, as the API server requires of any object. */
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

const ResourceTemplateMetadata = Doc('Metadata of the KubernetesApplicationResource this template makes.', {
  name: DocString('Name of the KubernetesApplicationResource; unique among the templates of the application.', {
    minLength: 1,
    maxLength: 253,
    pattern: DNS_SUBDOMAIN,
  }),
  namespace: Type.Optional(
    DocString(
      'Ignored: KubernetesApplicationResources always live in the namespace of their KubernetesApplication, as ReplicaSets in ' +
        'that of their Deployment.',
    ),
  ),
  labels: Type.Optional(StringMap('Labels of the KubernetesApplicationResource.', LABEL_LIMITS)),
  annotations: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Annotations of the KubernetesApplicationResource.' }),
  ),
});

/**
 * A resource's own schema, with every check but those that compare with the stored object (the
 * template's identity is immutable on the resource): the API server cannot tell which old item
 * of an array an item is, and refuses such rules there. A template whose identity changes has
 * its resource replaced instead (children.ts).
 */
function withoutTransitionRules<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withoutTransitionRules) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = { ...(schema as Record<string, unknown>) }; // symbol keys too: TypeBox's kind marks
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'x-kubernetes-validations') out[key] = withoutTransitionRules(value);
    else out[key] = (value as CelRule[]).filter((r) => !/\boldSelf\b/.test(r.rule));
  }
  if ((out['x-kubernetes-validations'] as unknown[] | undefined)?.length === 0) delete out['x-kubernetes-validations'];
  return out as T;
}
const ResourceTemplateSpec = withoutTransitionRules({
  ...KubernetesApplicationResourceSpec,
  description: 'Spec of the KubernetesApplicationResource: the object to submit, and the Secrets it needs.',
});

export const ResourceTemplate = Doc('A template of one KubernetesApplicationResource.', {
  metadata: ResourceTemplateMetadata,
  spec: ResourceTemplateSpec,
});

/**
 * Bounds the uniqueness rule's cost: it compares every pair of names, and even 128 names of the
 * longest kind (253 characters) stay about half inside the API server's budget for one
 * evaluation (1,000,000). An application that large is better split anyway: it is one object
 * in etcd, with every template in it.
 */
export const MAX_TEMPLATES = 128;

export const KubernetesApplicationSpec = withRules(
  Doc('The resources of the application, and where it may be scheduled.', {
    resourceSelector: Type.Optional(
      LabelSelectorSchema(
        'Accepted for compatibility with upstream manifests, and not used: an application finds its ' +
          'KubernetesApplicationResources by their controller reference, and never adopts others.',
      ),
    ),
    clusterSelector: Type.Optional(
      LabelSelectorSchema(
        'The KubernetesClusters in this namespace the application may be scheduled to; absent, any of them. Of those that ' +
          'match, the first by name is chosen, once. Immutable: delete and recreate the application to move it.',
      ),
    ),
    resourceTemplates: withRules(
      Type.Array(ResourceTemplate, {
        description:
          'One KubernetesApplicationResource per template, controlled by this application. Namespaces and ' +
          'CustomResourceDefinitions are submitted first, the other kinds once those are Submitted.',
        maxItems: MAX_TEMPLATES,
      }),
      {
        rule: 'self.all(t, self.exists_one(u, u.metadata.name == t.metadata.name))',
        // No `reason: FieldValueDuplicate`: with it the API server answers a bare "Duplicate
        // value", without this message.
        message: 'resourceTemplates[].metadata.name must be unique: each names one KubernetesApplicationResource',
      },
    ),
  }),
  {
    rule:
      'has(self.clusterSelector) == has(oldSelf.clusterSelector) && ' +
      '(!has(self.clusterSelector) || self.clusterSelector == oldSelf.clusterSelector)',
    message: 'spec.clusterSelector cannot be changed: delete and recreate the KubernetesApplication to schedule it elsewhere',
  },
);

export interface ResourceTemplate {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: KubernetesApplicationResourceSpec;
}
export interface KubernetesApplicationSpec {
  resourceSelector?: LabelSelector;
  clusterSelector?: LabelSelector;
  resourceTemplates: ResourceTemplate[];
}

export const APPLICATION_STATES = ['Pending', 'Scheduled', 'PartiallySubmitted', 'Submitted', 'Failed'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

const count = (description: string) => Type.Optional(Type.Integer({ description, minimum: 0 }));

/** The kind's own status fields (CompatibleStatus), besides conditions. */
export const applicationStatusFields = {
  state: Type.Optional(
    Type.Union(
      APPLICATION_STATES.map((s) => Type.Literal(s)),
      {
        description:
          'Pending: no KubernetesCluster chosen yet. Scheduled: none of its resources submitted yet. PartiallySubmitted: some. ' +
          'Submitted: all. Failed: the last attempt to reconcile it failed (see the Synced condition).',
      },
    ),
  ),
  clusterRef: Type.Optional({ ...ClusterReference, description: 'The KubernetesCluster this application is scheduled to.' }),
  desiredResources: count('How many resources the application templates.'),
  submittedResources: count('How many of them are Submitted to the cluster as templated.'),
};

/** What the engine keeps as atProvider: everything but the derived state. */
export const ApplicationObservation = Doc('What Chronoplane last saw.', {
  clusterRef: applicationStatusFields.clusterRef,
  desiredResources: applicationStatusFields.desiredResources,
  submittedResources: applicationStatusFields.submittedResources,
});
export type ApplicationObservation = Static<typeof ApplicationObservation>;
