// The parts every managed resource shares (crossplane-runtime's ResourceSpec/ResourceStatus),
// as TypeBox schemas. A kind supplies only its forProvider and atProvider; `managedSpec` and
// `managedStatus` wrap them so all kinds look alike to users and to the generic reconciler.
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { Doc, DocString, withRules } from './schema';
import { GenericReferences } from './references/fields';

export const ManagementAction = Type.Union(
  [
    Type.Literal('*'),
    Type.Literal('Observe'),
    Type.Literal('Create'),
    Type.Literal('Update'),
    Type.Literal('Delete'),
    Type.Literal('LateInitialize'),
  ],
  { description: 'An action Chronoplane may take on the external resource.' },
);
export type ManagementAction = Static<typeof ManagementAction>;

export const ManagementPolicy = Type.Union(
  [Type.Literal('Default'), Type.Literal('ObserveCreateUpdate'), Type.Literal('ObserveDelete'), Type.Literal('Observe')],
  {
    description:
      'Crossplane\u2019s earlier single policy, as seed 002 shows it (provider-kubernetes v1alpha1): Default observes, creates, updates and deletes; ObserveCreateUpdate never deletes; ObserveDelete never creates or updates; Observe only reads. Absent means Default. deletionPolicy Orphan wins over every policy.',
  },
);
export type ManagementPolicy = Static<typeof ManagementPolicy>;

/** The list of actions allowed on the external resource, as every managed kind spells it. */
export function ManagementPolicies(description: string, defaultActions?: ManagementAction[]) {
  return withRules(
    Type.Array(ManagementAction, {
      description,
      ...(defaultActions ? { default: defaultActions } : {}),
      // list-type set makes the API server reject duplicates (uniqueItems is not allowed in CRDs).
      'x-kubernetes-list-type': 'set',
      maxItems: 6,
    }),
    // As Crossplane: "*" already means every action, so a list that adds others is a mistake.
    { rule: "!('*' in self) || size(self) == 1", message: 'managementPolicies: "*" cannot be combined with other actions' },
  );
}

export const DeletionPolicy = Type.Union([Type.Literal('Delete'), Type.Literal('Orphan')], {
  description: 'What happens to the external resource when this managed resource is deleted: Delete removes it, Orphan leaves it in place.',
  default: 'Delete',
});
export type DeletionPolicy = Static<typeof DeletionPolicy>;

/** The legacy reference by name only: provider-kubernetes' cluster-scoped Object to its cluster-scoped ProviderConfig. */
export const ProviderConfigReference = Doc('The ProviderConfig that holds the credentials and endpoint used to reach the provider.', {
  name: DocString('Name of the cluster-scoped ProviderConfig.', { minLength: 1 }),
});

const ProviderConfigKind = Type.Union([Type.Literal('ProviderConfig'), Type.Literal('ClusterProviderConfig')], {
  description:
    'Kind of the referenced config: ProviderConfig (in this resource\u2019s own namespace, usable only from there) or ClusterProviderConfig (cluster-scoped, usable from the namespaces its namespaceSelector matches).',
});

/**
 * Crossplane v2's reference of a namespaced managed resource: kind and name, defaulting to the
 * ClusterProviderConfig named default (crossplane-runtime's v2 ProviderConfigReference).
 */
export const TypedProviderConfigReference = Type.Object(
  {
    kind: ProviderConfigKind,
    name: DocString('Name of the referenced ProviderConfig or ClusterProviderConfig.', { minLength: 1 }),
  },
  {
    description:
      'ProviderConfigReference specifies how the provider that will be used to create, observe, update, and delete this managed resource should be configured.',
    additionalProperties: false,
    default: { kind: 'ClusterProviderConfig', name: 'default' },
  },
);

export const SecretReference = Doc('Where to write the connection details Secret, in this resource\u2019s namespace.', {
  name: DocString('Name of the Secret.', { minLength: 1 }),
});

export function managedSpec<F extends TSchema>(forProvider: F) {
  return Doc('The desired state of the managed resource.', {
    forProvider,
    providerConfigRef: Type.Optional(TypedProviderConfigReference),
    deletionPolicy: Type.Optional(DeletionPolicy),
    managementPolicies: Type.Optional(
      ManagementPolicies(
        'The actions Chronoplane may take on the external resource. ["*"] allows all; ["Observe"] only reads it and reports its state.',
        ['*'],
      ),
    ),
    writeConnectionSecretToRef: Type.Optional(SecretReference),
    references: Type.Optional(GenericReferences),
  });
}

export const ConditionSchema = Doc('The observed state of one aspect of the resource.', {
  type: DocString('Type of the condition, such as Ready or Synced.'),
  status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], { description: 'True, False or Unknown.' }),
  reason: DocString('A machine-readable reason for the condition\u2019s last transition.'),
  message: Type.Optional(DocString('A human-readable message, such as the provider\u2019s error.')),
  lastTransitionTime: DocString('When the condition last changed status.', { format: 'date-time' }),
  observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation this condition was computed from.' })),
});

/** The standard status around atProvider, or around a kind's own status fields (CompatibleStatus). */
export function managedStatus<A extends TSchema>(atProvider: A, ownFields?: TProperties) {
  return Doc('The observed state of the managed resource.', {
    ...(ownFields ?? { atProvider: Type.Optional(atProvider) }),
    conditions: Type.Optional(
      Type.Array(ConditionSchema, {
        description: 'Conditions of the resource: Ready and Synced.',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    ),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation last reconciled.' })),
    lastHandledReconcileAt: Type.Optional(
      Type.String({
        description: 'The last crossplane.io/reconcile-requested-at value a reconcile pass has run for.',
      }),
    ),
  });
}
