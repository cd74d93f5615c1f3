// provider-kubernetes' `Object` in kubernetes.crossplane.io, so that its manifests apply
// unchanged: any Kubernetes object, wrapped in spec.forProvider.manifest, for a cluster named
// by a ProviderConfig. One schema serves both versions users have: v1alpha1 as seed 002 shows
// it (managementPolicy, references[].fromObject) and v1alpha2 as provider-kubernetes has it
// today (managementPolicies, patchesFrom / dependsOn, readiness, connectionDetails, watch).
// It is their union, so no conversion webhook is needed; CEL keeps each object to one of the
// two policy forms. Neither policy field has a default: one would collide with the other form.
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { DeletionPolicy, ManagementPolicies, ManagementPolicy, ProviderConfigReference } from '#core/managed';
import { GenericReference, GenericReferences } from '#core/references/fields';
import { Doc, DocString, withRules, type CelRule } from '#core/schema';
import type { KindApi } from '#core/managed-kind';

/** v1alpha2 is stored, as upstream's; v1alpha1 is served with the same schema. */
export const objectApi: KindApi = {
  group: 'kubernetes.crossplane.io',
  version: 'v1alpha2',
  kind: 'Object',
  plural: 'objects',
  singular: 'object',
  shortNames: [],
  categories: ['crossplane', 'managed', 'kubernetes'],
  description:
    'Any Kubernetes object, in this cluster or another, managed as a Crossplane managed resource (provider-kubernetes\u2019 Object).',
  scope: 'Cluster',
};
export const OBJECT_OLDER_VERSIONS = ['v1alpha1'] as const;

/** The manifest as the API server keeps it: any object, with apiVersion and kind required. */
const Manifest = (description: string) =>
  Type.Object(
    {},
    {
      description,
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    },
  );

/** Where patchesFrom's toFieldPath counts from on an Object: the manifest, as upstream's. */
export const OBJECT_PATCH_ROOT = 'spec.forProvider.manifest';

/**
 * A manifest's apiVersion, kind, metadata.name and metadata.namespace say which object in the
 * target cluster it is: another value would be another object, and the one already there would
 * be left behind, unmanaged. The API server refuses such a change, as for a
 * KubernetesApplicationResource's template. Removing metadata.name (or namespace) is a change
 * too, even when the default it falls back to (the Object's own name and namespace, or
 * `default`) is the same: that default cannot be seen from the spec, where these rules live.
 * Adding one where none was is allowed here: that is how a reference (seed 002's fromObject
 * into metadata.name) or a composition fills it in before the target is made. A name added
 * after the target was made, other than the one it was made with, is refused by an admission
 * policy (generate/admission.ts objectTargetNamePolicy), which can read the external-name
 * annotation that tells the two apart.
 */
const fixedInTarget = (field: string, rule: string): CelRule => ({
  rule,
  message:
    `spec.forProvider.manifest.${field} cannot be changed: it names the object in the target cluster, and the one already ` +
    'there would be left behind, unmanaged; delete and recreate the Object to change it',
});
/** Once set, kept as it is, as `field` of metadata (`__namespace__` is how CEL spells namespace). */
const keptOnceSet = (field: string) =>
  `!has(oldSelf.metadata) || !has(oldSelf.metadata.${field}) || ` +
  `(has(self.metadata) && has(self.metadata.${field}) && self.metadata.${field} == oldSelf.metadata.${field})`;

/**
 * The manifest of a spec: the fields that name the target are declared (with the bounds
 * Kubernetes has for them), so that CEL can compare them; an embedded resource's metadata is
 * otherwise only name and generateName to CEL. Everything else is kept as written.
 */
const SpecManifest = (description: string) =>
  withRules(
    Type.Object(
      {
        apiVersion: DocString('API version of the object, such as apps/v1.', { maxLength: 317 }),
        kind: DocString('Kind of the object, such as Deployment.', { maxLength: 63 }),
        metadata: Type.Optional(
          Type.Object(
            {
              // Kubernetes clients address objects by URL in lowercase (client-node's included), so
              // a name in capitals would be read, updated and deleted as another object.
              name: Type.Optional(
                withRules(DocString('Name of the object.', { maxLength: 253 }), {
                  rule: "!self.matches('[A-Z]')",
                  message: 'must be lowercase, as a Kubernetes name is (a lowercase RFC 1123 subdomain for most kinds)',
                }),
              ),
              generateName: Type.Optional(DocString('Prefix of a generated name.', { maxLength: 253 })),
              namespace: Type.Optional(DocString('Namespace of the object.', { maxLength: 63 })),
            },
            {
              description: 'Object metadata; labels, annotations and the rest are kept as written.',
              'x-kubernetes-preserve-unknown-fields': true,
            },
          ),
        ),
      },
      { description, 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    ),
    fixedInTarget('apiVersion', 'self.apiVersion == oldSelf.apiVersion'),
    fixedInTarget('kind', 'self.kind == oldSelf.kind'),
    fixedInTarget('metadata.name', keptOnceSet('name')),
    fixedInTarget('metadata.namespace', keptOnceSet('__namespace__')),
  );

export const ObjectParameters = Doc('The object to manage.', {
  manifest: SpecManifest('The object to manage in the target cluster; metadata.name defaults to the Object\u2019s name.'),
});
export type ObjectParameters = { manifest: KubernetesManifest };

/** A manifest as users write it: apiVersion and kind required (admission checks), the rest free. */
export interface KubernetesManifest {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

// The engine's generic reference (core/references/fields.ts), not a second one: only the defaults
// upstream gives an Object differ. patchesFrom and dependsOn name another Object unless they say
// otherwise, and a target without a namespace is cluster-scoped (an Object has no namespace).
const { fromObject, patchesFrom, dependsOn, toFieldPath } = GenericReference.properties;
const DEFAULT_REFERENCE_TARGET = { apiVersion: `${objectApi.group}/v1alpha1`, kind: objectApi.kind };
const clusterScopedByDefault = {
  namespace: Type.Optional({
    ...fromObject.properties.namespace,
    description: 'Namespace of the referenced object; absent for a cluster-scoped one.',
  }),
};
const objectByDefault = {
  ...clusterScopedByDefault,
  apiVersion: Type.Optional({ ...patchesFrom.properties.apiVersion, default: DEFAULT_REFERENCE_TARGET.apiVersion }),
  kind: Type.Optional({ ...patchesFrom.properties.kind, default: DEFAULT_REFERENCE_TARGET.kind }),
};
const withProperties = (schema: TObject, properties: TProperties, description?: string) =>
  Type.Object({ ...schema.properties, ...properties }, { description: description ?? schema.description, additionalProperties: false });

export const ObjectReference = Type.Object(
  {
    fromObject: Type.Optional(withProperties(fromObject, clusterScopedByDefault)),
    patchesFrom: Type.Optional(
      withProperties(
        patchesFrom,
        objectByDefault,
        'provider-kubernetes\u2019 form: copy fieldPath of that object into this Object\u2019s manifest at toFieldPath. Blocking.',
      ),
    ),
    dependsOn: Type.Optional(withProperties(dependsOn, objectByDefault)),
    toFieldPath: Type.Optional({
      ...toFieldPath,
      description: `Where the value goes. With fromObject it counts from this Object\u2019s root (spec.forProvider.manifest.metadata.name); with patchesFrom from ${OBJECT_PATCH_ROOT}, and defaults to fieldPath.`,
    }),
  },
  {
    description: GenericReference.description,
    additionalProperties: false,
    'x-kubernetes-validations': GenericReference['x-kubernetes-validations'] as CelRule[],
  },
);

export const Readiness = withRules(
  Doc('When the Object counts as Ready.', {
    policy: Type.Optional(
      Type.Union(
        [Type.Literal('SuccessfulCreate'), Type.Literal('DeriveFromObject'), Type.Literal('AllTrue'), Type.Literal('DeriveFromCelQuery')],
        {
          description:
            'SuccessfulCreate (the default): once the object exists. DeriveFromObject: its Ready condition (or none). AllTrue: all its conditions are True. DeriveFromCelQuery: celQuery holds of it.',
          default: 'SuccessfulCreate',
        },
      ),
    ),
    celQuery: Type.Optional(DocString('A CEL expression over `object`, the observed object; Ready while it is true.')),
  }),
  {
    rule: "!has(self.policy) || self.policy != 'DeriveFromCelQuery' || (has(self.celQuery) && size(self.celQuery) > 0)",
    message: 'celQuery must be set if policy is DeriveFromCelQuery',
  },
);

export const ConnectionDetail = withRules(
  Doc('A field of an object in the target cluster to publish in the connection Secret.', {
    apiVersion: Type.Optional(DocString('API version of the object.')),
    kind: Type.Optional(DocString('Kind of the object.')),
    name: Type.Optional(DocString('Name of the object.')),
    namespace: Type.Optional(DocString('Namespace of the object.')),
    // Optional in upstream's CRD, yet without it there is nothing to publish: refused here rather
    // than failing every pass of an Object that could then never be deleted.
    fieldPath: DocString('The field to publish, such as data.password or spec.clusterIP.', { minLength: 1, maxLength: 1024 }),
    uid: Type.Optional(DocString('UID of the object (accepted as in a Kubernetes ObjectReference; not used).')),
    resourceVersion: Type.Optional(DocString('Accepted as in a Kubernetes ObjectReference; not used.')),
    toConnectionSecretKey: Type.Optional(DocString('The key in the connection Secret; defaults to the last element of fieldPath.')),
  }),
  {
    rule: "has(self.toConnectionSecretKey) || !self.fieldPath.matches('\\\\[[0-9]+\\\\]$')",
    message: 'toConnectionSecretKey is required when fieldPath ends in an index, which names no Secret key',
  },
);

const ConnectionSecretReference = Doc('Where to write the connection details Secret.', {
  name: DocString('Name of the Secret.', { minLength: 1 }),
  namespace: DocString('Namespace of the Secret.', { minLength: 1 }),
});

export const ObjectSpec = withRules(
  Doc('The desired state of the Object.', {
    forProvider: ObjectParameters,
    providerConfigRef: Type.Optional(
      Type.Object(ProviderConfigReference.properties, { ...ProviderConfigReference, default: { name: 'default' } }),
    ),
    deletionPolicy: Type.Optional(DeletionPolicy),
    managementPolicy: Type.Optional(ManagementPolicy),
    managementPolicies: Type.Optional(
      ManagementPolicies('The list form (v1alpha2): the actions Chronoplane may take on the object. Absent means ["*"].'),
    ),
    references: Type.Optional(
      Type.Array(ObjectReference, { description: GenericReferences.description, maxItems: GenericReferences.maxItems }),
    ),
    readiness: Type.Optional(Readiness),
    connectionDetails: Type.Optional(
      Type.Array(ConnectionDetail, { description: 'What to publish to writeConnectionSecretToRef.', maxItems: 64 }),
    ),
    writeConnectionSecretToRef: Type.Optional(ConnectionSecretReference),
    watch: Type.Optional(
      Type.Boolean({
        description: 'Accepted for provider-kubernetes compatibility: Chronoplane always watches the objects it manages.',
        default: false,
      }),
    ),
  }),
  {
    rule: '!(has(self.managementPolicy) && has(self.managementPolicies))',
    message: 'use managementPolicy (v1alpha1) or managementPolicies (v1alpha2), not both',
  },
);
export type ObjectSpec = Static<typeof ObjectSpec>;

export const ObjectObservation = Doc('What Chronoplane last saw of the object.', {
  manifest: Type.Optional(Manifest('The object as it is in the target cluster, status included; Secret data is redacted.')),
});

export type ObjectObservation = { manifest?: Record<string, unknown> };
