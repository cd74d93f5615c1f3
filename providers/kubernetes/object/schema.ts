// provider-kubernetes' `Object` in kubernetes.crossplane.io, so that its manifests apply
// unchanged: any Kubernetes object, wrapped in spec.forProvider.manifest, for a cluster named
// by a ProviderConfig. One schema serves both versions users have: v1alpha1 as seed 002 shows
// it (managementPolicy, references[].fromObject) and v1alpha2 as provider-kubernetes has it
// today (managementPolicies, patchesFrom / dependsOn, readiness, connectionDetails, watch).
// It is their union, so no conversion webhook is needed; CEL keeps each object to one of the
// two policy forms. Neither policy field has a default: one would collide with the other form.
import { Type, type Static } from '@sinclair/typebox';
import { DeletionPolicy, managedStatus, ManagementAction, ProviderConfigReference } from '../../../apis/managed';
import { Doc, DocString, withRules } from '../../../apis/schema';
import type { KindApi } from '../../../runtime/managed-kind';

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

export const ManagementPolicy = Type.Union(
  [Type.Literal('Default'), Type.Literal('ObserveCreateUpdate'), Type.Literal('ObserveDelete'), Type.Literal('Observe')],
  {
    description:
      'Seed 002\u2019s single policy (v1alpha1): Default observes, creates, updates and deletes; ObserveCreateUpdate never deletes; ObserveDelete never creates or updates; Observe only reads. Absent means Default. deletionPolicy Orphan wins over every policy.',
  },
);
export type ManagementPolicy = Static<typeof ManagementPolicy>;

const coordinates = {
  apiVersion: Type.Optional(DocString('API version of the referenced object.', { default: 'kubernetes.crossplane.io/v1alpha1' })),
  kind: Type.Optional(DocString('Kind of the referenced object.', { default: 'Object' })),
  name: DocString('Name of the referenced object.', { minLength: 1 }),
  namespace: Type.Optional(DocString('Namespace of the referenced object, for a namespaced kind.')),
};
const fieldPath = (description: string) => DocString(description, { minLength: 1, maxLength: 512 });

export const ObjectReference = withRules(
  Doc('A dependency on another object, and optionally a value to copy from it.', {
    fromObject: Type.Optional(
      Doc('Seed 002\u2019s form: copy fieldPath of the object to toFieldPath, counted from this Object\u2019s root. Blocking.', {
        apiVersion: DocString('API version of the referenced object.', { minLength: 1 }),
        kind: DocString('Kind of the referenced object.', { minLength: 1 }),
        name: coordinates.name,
        namespace: coordinates.namespace,
        fieldPath: fieldPath('The field to read, such as status.atProvider.manifest.status.currentCSV.'),
      }),
    ),
    patchesFrom: Type.Optional(
      Doc('provider-kubernetes\u2019 form: copy fieldPath to toFieldPath inside the manifest. Blocking.', {
        ...coordinates,
        fieldPath: fieldPath('The field to read.'),
      }),
    ),
    dependsOn: Type.Optional(
      Doc('A non-blocking dependency: this Object goes before it on deletion, and is not created before it exists.', coordinates),
    ),
    toFieldPath: Type.Optional(
      fieldPath(
        'Where the value goes. With fromObject it counts from this Object\u2019s root (spec.forProvider.manifest.metadata.name); with patchesFrom from the manifest, and defaults to fieldPath.',
      ),
    ),
  }),
  {
    rule: '(has(self.fromObject) ? 1 : 0) + (has(self.patchesFrom) ? 1 : 0) + (has(self.dependsOn) ? 1 : 0) == 1',
    message: 'each reference has exactly one of fromObject, patchesFrom and dependsOn',
  },
  { rule: '!has(self.fromObject) || has(self.toFieldPath)', message: 'fromObject needs toFieldPath' },
  { rule: '!has(self.dependsOn) || !has(self.toFieldPath)', message: 'dependsOn copies nothing, so it takes no toFieldPath' },
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

export const ConnectionDetail = Doc('A field of an object in the target cluster to publish in the connection Secret.', {
  apiVersion: Type.Optional(DocString('API version of the object.')),
  kind: Type.Optional(DocString('Kind of the object.')),
  name: Type.Optional(DocString('Name of the object.')),
  namespace: Type.Optional(DocString('Namespace of the object.')),
  fieldPath: Type.Optional(DocString('The field to publish, such as data.password or spec.clusterIP.')),
  uid: Type.Optional(DocString('UID of the object (accepted as in a Kubernetes ObjectReference; not used).')),
  resourceVersion: Type.Optional(DocString('Accepted as in a Kubernetes ObjectReference; not used.')),
  toConnectionSecretKey: Type.Optional(DocString('The key in the connection Secret; defaults to the last element of fieldPath.')),
});

export const ConnectionSecretReference = Doc('Where to write the connection details Secret.', {
  name: DocString('Name of the Secret.', { minLength: 1 }),
  namespace: DocString('Namespace of the Secret.', { minLength: 1 }),
});

export const ObjectSpec = withRules(
  Doc('The desired state of the Object.', {
    forProvider: Doc('The object to manage.', {
      manifest: Manifest('The object to manage in the target cluster; metadata.name defaults to the Object\u2019s name.'),
    }),
    providerConfigRef: Type.Optional(
      Type.Object(ProviderConfigReference.properties, { ...ProviderConfigReference, default: { name: 'default' } }),
    ),
    deletionPolicy: Type.Optional(DeletionPolicy),
    managementPolicy: Type.Optional(ManagementPolicy),
    managementPolicies: Type.Optional(
      withRules(
        Type.Array(ManagementAction, {
          description: 'The list form (v1alpha2): the actions Chronoplane may take on the object. Absent means ["*"].',
          'x-kubernetes-list-type': 'set',
          maxItems: 6,
        }),
        { rule: "!('*' in self) || size(self) == 1", message: 'managementPolicies: "*" cannot be combined with other actions' },
      ),
    ),
    references: Type.Optional(
      Type.Array(ObjectReference, { description: 'Other objects this one depends on, resolved in order.', maxItems: 32 }),
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

export const ObjectStatus = managedStatus(ObjectObservation);

/** The actions a management policy of either form allows; absent means all of them. */
export function allowedActions(spec: Pick<ObjectSpec, 'managementPolicy' | 'managementPolicies'>): ManagementAction[] {
  if (spec.managementPolicies) return spec.managementPolicies.includes('*') ? ['*'] : spec.managementPolicies;
  switch (spec.managementPolicy ?? 'Default') {
    case 'Default':
      return ['*'];
    // As upstream's conversion maps them.
    case 'ObserveCreateUpdate':
      return ['Observe', 'Create', 'Update'];
    case 'ObserveDelete':
      return ['Observe', 'Delete'];
    case 'Observe':
      return ['Observe'];
  }
}
