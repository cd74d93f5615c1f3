// provider-kubernetes' Crossplane v2 `Object` (kubernetes.m.crossplane.io/v1alpha1), namespaced,
// in the shape of upstream's CRD so that its v2 manifests apply unchanged. It is the legacy
// Object's API (schema.ts) with Crossplane v2's differences, and the same client serves both:
// - providerConfigRef is `{kind, name}`, defaulting to the ClusterProviderConfig `default`;
// - there is no deletionPolicy and no single-policy form: managementPolicies (default ["*"]) says
//   what may be done, and forProvider.deletionPropagationPolicy how the target is deleted;
// - references are patchesFrom and dependsOn only (seed 002's fromObject is the legacy group's),
//   naming a kubernetes.m.crossplane.io Object unless they say otherwise, in this namespace;
// - writeConnectionSecretToRef names a Secret in the Object's own namespace (name only).
import { Type, type Static } from '@sinclair/typebox';
import { ManagementPolicies, SecretReference, TypedProviderConfigReference } from '#core/managed';
import { GenericReference, GenericReferences } from '#core/references/fields';
import { Doc, withRules } from '#core/schema';
import type { KindApi } from '#core/managed-kind';
import { ConnectionDetail, OBJECT_PATCH_ROOT, ObjectParameters, ObjectReference, Readiness, objectApi } from './schema';

export const namespacedObjectApi: KindApi = {
  ...objectApi,
  group: 'kubernetes.m.crossplane.io',
  version: 'v1alpha1',
  description:
    'Any Kubernetes object, in this cluster or another, managed as a Crossplane v2 namespaced managed resource (provider-kubernetes\u2019 Object).',
  scope: 'Namespaced',
};

export const DeletionPropagationPolicy = Type.Union([Type.Literal('Orphan'), Type.Literal('Background'), Type.Literal('Foreground')], {
  description:
    'How the target\u2019s dependents are deleted with it, as the Kubernetes API\u2019s propagationPolicy: Background (the default), Foreground or Orphan.',
  default: 'Background',
});
export type DeletionPropagationPolicy = Static<typeof DeletionPropagationPolicy>;

export const NamespacedObjectParameters = Doc('The object to manage.', {
  manifest: {
    ...ObjectParameters.properties.manifest,
    description:
      'The object to manage in the target cluster; metadata.name defaults to the Object\u2019s name, and metadata.namespace of a namespaced kind to the Object\u2019s namespace.',
  },
  deletionPropagationPolicy: Type.Optional(DeletionPropagationPolicy),
});
export type NamespacedObjectParameters = ObjectParameters & { deletionPropagationPolicy?: DeletionPropagationPolicy };

const DEFAULT_REFERENCE_TARGET = { apiVersion: `${namespacedObjectApi.group}/${namespacedObjectApi.version}`, kind: 'Object' };
// The engine's generic reference, as the legacy Object has it, with this group's defaults.
const { patchesFrom, dependsOn } = GenericReference.properties;
const inThisNamespace = {
  namespace: Type.Optional({
    ...patchesFrom.properties.namespace,
    description: 'Namespace of the referenced object; defaults to, and may only be, this Object\u2019s namespace.',
  }),
  apiVersion: Type.Optional({ ...patchesFrom.properties.apiVersion, default: DEFAULT_REFERENCE_TARGET.apiVersion }),
  kind: Type.Optional({ ...patchesFrom.properties.kind, default: DEFAULT_REFERENCE_TARGET.kind }),
};
const legacy = ObjectReference.properties;

const NamespacedObjectReference = withRules(
  Type.Object(
    {
      patchesFrom: Type.Optional(
        Type.Object(
          { ...patchesFrom.properties, ...inThisNamespace },
          { description: legacy.patchesFrom.description, additionalProperties: false },
        ),
      ),
      dependsOn: Type.Optional(
        Type.Object({ ...dependsOn.properties, ...inThisNamespace }, { description: dependsOn.description, additionalProperties: false }),
      ),
      toFieldPath: Type.Optional({
        ...GenericReference.properties.toFieldPath,
        description: `Where patchesFrom's value goes, counted from ${OBJECT_PATCH_ROOT}; defaults to patchesFrom.fieldPath.`,
      }),
    },
    {
      description: 'Another Object or any Kubernetes resource this one depends on, and optionally a field to patch from it.',
      additionalProperties: false,
    },
  ),
  {
    rule: '(has(self.patchesFrom) ? 1 : 0) + (has(self.dependsOn) ? 1 : 0) == 1',
    message: 'each reference has exactly one of patchesFrom and dependsOn',
  },
  { rule: '!has(self.dependsOn) || !has(self.toFieldPath)', message: 'dependsOn copies nothing, so it takes no toFieldPath' },
);

export const NamespacedObjectSpec = Doc('The desired state of the Object.', {
  forProvider: NamespacedObjectParameters,
  providerConfigRef: Type.Optional(TypedProviderConfigReference),
  managementPolicies: Type.Optional(
    ManagementPolicies('The actions Chronoplane may take on the object. ["*"] allows all; ["Observe"] only reads it.', ['*']),
  ),
  references: Type.Optional(
    Type.Array(NamespacedObjectReference, { description: GenericReferences.description, maxItems: GenericReferences.maxItems }),
  ),
  readiness: Type.Optional(Readiness),
  connectionDetails: Type.Optional(
    Type.Array(ConnectionDetail, { description: 'What to publish to writeConnectionSecretToRef.', maxItems: 64 }),
  ),
  writeConnectionSecretToRef: Type.Optional(SecretReference),
  watch: Type.Optional(
    Type.Boolean({
      description: 'Accepted for provider-kubernetes compatibility: Chronoplane always watches the objects it manages.',
      default: false,
    }),
  ),
});
export type NamespacedObjectSpec = Static<typeof NamespacedObjectSpec>;
