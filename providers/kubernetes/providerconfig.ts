// provider-kubernetes' ProviderConfig (kubernetes.crossplane.io/v1alpha1), cluster-scoped: which
// cluster an Object lands in. Secret reads a kubeconfig from a Secret; InjectedIdentity uses
// the worker's own credentials, for the control cluster itself. Upstream's other sources and
// cloud identities are refused at admission with a message that says so, not accepted and
// left to fail later.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, withRules } from '#core/schema';
import type { KindApi } from '#core/managed-kind';

export const kubernetesProviderConfigApi: KindApi = {
  group: 'kubernetes.crossplane.io',
  version: 'v1alpha1',
  kind: 'ProviderConfig',
  plural: 'providerconfigs',
  singular: 'providerconfig',
  shortNames: [],
  categories: ['crossplane', 'provider', 'kubernetes'],
  description: 'A Kubernetes cluster that Objects are managed in, and how to authenticate to it.',
};

const SUPPORTED_SOURCES = ['Secret', 'InjectedIdentity'];

const KubeconfigSecretReference = Doc('A key of a Secret that holds a kubeconfig.', {
  namespace: DocString('Namespace of the Secret.', { minLength: 1 }),
  name: DocString('Name of the Secret.', { minLength: 1 }),
  key: DocString('Key within the Secret, such as kubeconfig.', { minLength: 1 }),
});

export const KubernetesProviderConfigSpec = Doc('How to reach the cluster.', {
  credentials: withRules(
    Doc('Where the credentials come from.', {
      source: Type.Union(
        [
          Type.Literal('None'),
          Type.Literal('Secret'),
          Type.Literal('InjectedIdentity'),
          Type.Literal('Environment'),
          Type.Literal('Filesystem'),
        ],
        { description: 'Secret: a kubeconfig in secretRef. InjectedIdentity: the worker\u2019s own credentials (the control cluster).' },
      ),
      secretRef: Type.Optional(KubeconfigSecretReference),
    }),
    {
      rule: `self.source in ${JSON.stringify(SUPPORTED_SOURCES).replaceAll('"', "'")}`,
      message: 'Chronoplane reads credentials from a Secret (a kubeconfig) or uses InjectedIdentity',
    },
    { rule: "self.source != 'Secret' || has(self.secretRef)", message: 'secretRef is required when source is Secret' },
  ),
  identity: Type.Optional(
    withRules(
      Doc(
        'A cloud identity to add to the kubeconfig (upstream\u2019s GKE, AKS and EKS identities).',
        {
          type: DocString('The kind of identity.'),
        },
        { additionalProperties: true, 'x-kubernetes-preserve-unknown-fields': true },
      ),
      { rule: 'false', message: 'Chronoplane does not support cloud identities yet: put a complete kubeconfig in the Secret' },
    ),
  ),
});
export type KubernetesProviderConfigSpec = Static<typeof KubernetesProviderConfigSpec>;

export const KubernetesProviderConfigStatus = Doc('Observed state of the ProviderConfig.', {});
