// provider-kubernetes' Crossplane v2 configs (kubernetes.m.crossplane.io/v1alpha1), in the shape
// of upstream's CRDs: a namespaced ProviderConfig, usable only by the managed resources of its
// own namespace with a kubeconfig Secret there, and a cluster-scoped ClusterProviderConfig, to
// which we add `namespaceSelector` (which namespaces may use it). As for the legacy
// ProviderConfig (./providerconfig.ts), upstream's other credential sources and its identities
// are refused at admission with a message that says so.
//
// InjectedIdentity is the worker's own rights on the control cluster. In a namespaced
// ProviderConfig that would let a namespace's admin act with the controller's rights, so there
// it manages only namespaced objects of its own namespace: the resolved connection carries
// `restrictToNamespace` (cluster-connection.ts) and the Object client refuses other targets.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, withRules } from '#core/schema';
import { ConditionSchema } from '#core/managed';
import { NamespaceSelector } from '#apis/label-selector';
import { crd } from '#apis/crd';
import type { KindApi } from '#core/managed-kind';
import type { ProviderConfigKinds } from '#runtime/provider-config';

const MODERN_GROUP = 'kubernetes.m.crossplane.io';

const modernProviderConfigApi: KindApi & { kind: 'ProviderConfig' } = {
  group: MODERN_GROUP,
  version: 'v1alpha1',
  kind: 'ProviderConfig',
  plural: 'providerconfigs',
  singular: 'providerconfig',
  shortNames: [],
  categories: ['crossplane', 'provider', 'kubernetes'],
  description: 'A ProviderConfig configures a Template provider.',
  scope: 'Namespaced',
};

const modernClusterProviderConfigApi: KindApi & { kind: 'ClusterProviderConfig' } = {
  group: MODERN_GROUP,
  version: 'v1alpha1',
  kind: 'ClusterProviderConfig',
  plural: 'clusterproviderconfigs',
  singular: 'clusterproviderconfig',
  shortNames: [],
  categories: ['crossplane', 'provider', 'kubernetes'],
  description: 'A ClusterProviderConfig configures a Kubernetes provider.',
  scope: 'Cluster',
};

export const modernProviderConfigKinds: ProviderConfigKinds = {
  namespaced: modernProviderConfigApi,
  cluster: modernClusterProviderConfigApi,
};

const SUPPORTED_SOURCES = ['Secret', 'InjectedIdentity'];

const CredentialSource = Type.Union(
  ['None', 'Secret', 'InjectedIdentity', 'Environment', 'Filesystem'].map((s) => Type.Literal(s)),
  { description: 'Source of the provider credentials.' },
);

const SecretKeySelector = Doc(
  'A SecretRef is a reference to a secret key that contains the credentials that must be used to connect to the provider.',
  {
    key: DocString('The key to select.'),
    name: DocString('Name of the secret.'),
    namespace: DocString('Namespace of the secret.'),
  },
);

const EnvSelector = Doc(
  'Env is a reference to an environment variable that contains credentials that must be used to connect to the provider.',
  { name: DocString('Name is the name of an environment variable.') },
);

const FsSelector = Doc(
  'Fs is a reference to a filesystem location that contains credentials that must be used to connect to the provider.',
  { path: DocString('Path is a filesystem path.') },
);

const IdentityType = Type.Union(
  [
    'GoogleApplicationCredentials',
    'AzureServicePrincipalCredentials',
    'AzureWorkloadIdentityCredentials',
    'UpboundTokens',
    'AWSWebIdentityCredentials',
    'NebiusServiceAccountCredentials',
  ].map((t) => Type.Literal(t)),
  { description: 'Type of identity.' },
);

const credentials = withRules(
  Doc('Credentials used to connect to the Kubernetes API. Typically a kubeconfig file. Use InjectedIdentity for in-cluster config.', {
    env: Type.Optional(EnvSelector),
    fs: Type.Optional(FsSelector),
    secretRef: Type.Optional(SecretKeySelector),
    source: CredentialSource,
  }),
  {
    rule: `self.source in ${JSON.stringify(SUPPORTED_SOURCES).replaceAll('"', "'")}`,
    message: 'Chronoplane reads credentials from a Secret (a kubeconfig) or uses InjectedIdentity',
  },
  { rule: "self.source != 'Secret' || has(self.secretRef)", message: 'secretRef is required when source is Secret' },
);

const identity = withRules(
  Doc(
    "Identity used to authenticate to the Kubernetes API. The identity credentials can be used to supplement kubeconfig 'credentials', for example by configuring a bearer token source such as OAuth.",
    {
      env: Type.Optional(EnvSelector),
      fs: Type.Optional(FsSelector),
      secretRef: Type.Optional(SecretKeySelector),
      source: CredentialSource,
      type: IdentityType,
    },
  ),
  { rule: 'false', message: 'Chronoplane does not support cloud identities yet: put a complete kubeconfig in the Secret' },
);

const ModernProviderConfigSpec = Doc('A ProviderConfigSpec defines the desired state of a ProviderConfig.', {
  credentials,
  identity: Type.Optional(identity),
});
type ModernProviderConfigSpec = Static<typeof ModernProviderConfigSpec>;

export const ModernClusterProviderConfigSpec = Doc('A ProviderConfigSpec defines the desired state of a ProviderConfig.', {
  credentials,
  identity: Type.Optional(identity),
  namespaceSelector: Type.Optional(NamespaceSelector),
});
export type ModernClusterProviderConfigSpec = Static<typeof ModernClusterProviderConfigSpec>;

const ModernProviderConfigStatus = Doc('A ProviderConfigStatus reflects the observed state of a ProviderConfig.', {
  conditions: Type.Optional(
    Type.Array(ConditionSchema, {
      description: 'Conditions of the resource.',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    }),
  ),
  users: Type.Optional(Type.Integer({ description: 'Users of this provider configuration.', format: 'int64' })),
});

const printerColumns = [
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'SECRET-NAME', type: 'string', jsonPath: '.spec.credentials.secretRef.name', priority: 1 },
];

export function modernProviderConfigCrds() {
  return [
    crd({
      api: modernProviderConfigApi,
      scope: 'Namespaced',
      spec: ModernProviderConfigSpec,
      status: ModernProviderConfigStatus,
      printerColumns,
    }),
    crd({
      api: modernClusterProviderConfigApi,
      scope: 'Cluster',
      spec: ModernClusterProviderConfigSpec,
      status: ModernProviderConfigStatus,
      printerColumns,
    }),
  ];
}
