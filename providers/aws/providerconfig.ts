// The AWS provider's configs, as Crossplane v2 pairs them: a namespaced ProviderConfig that only
// its own namespace's managed resources may use, its credentials Secret in that namespace, and
// a cluster-scoped ClusterProviderConfig (cluster admins' to create) with the same spec plus our
// namespaceSelector. Where credentials come from and which endpoint to call; their status never
// holds credentials, only the name of the Secret that does.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, withRules, type CelRule } from '#core/schema';
import { NamespaceSelector } from '#apis/label-selector';
import type { KindApi } from '#core/managed-kind';
import type { ProviderConfigKinds } from '#runtime/provider-config';

export const providerConfigApi: KindApi & { kind: 'ProviderConfig' } = {
  group: 'aws.chronoplane.io',
  version: 'v1alpha1',
  kind: 'ProviderConfig',
  plural: 'providerconfigs',
  singular: 'providerconfig',
  shortNames: ['awspc'],
  categories: ['providerconfig', 'aws'],
  description:
    'How Chronoplane authenticates to AWS and which endpoint it calls, for the managed resources of this namespace only; its credentials Secret is in this namespace.',
  scope: 'Namespaced',
};

export const clusterProviderConfigApi: KindApi & { kind: 'ClusterProviderConfig' } = {
  group: 'aws.chronoplane.io',
  version: 'v1alpha1',
  kind: 'ClusterProviderConfig',
  plural: 'clusterproviderconfigs',
  singular: 'clusterproviderconfig',
  shortNames: ['awscpc'],
  categories: ['providerconfig', 'aws'],
  description:
    'How Chronoplane authenticates to AWS and which endpoint it calls, for managed resources of every namespace its namespaceSelector matches.',
  scope: 'Cluster',
};

export const awsProviderConfigKinds: ProviderConfigKinds = { namespaced: providerConfigApi, cluster: clusterProviderConfigApi };

const SecretKeySelector = Doc('A key in a Secret.', {
  namespace: DocString('Namespace of the Secret; for a namespaced ProviderConfig, its own namespace.'),
  name: DocString('Name of the Secret.'),
  key: DocString('Key within the Secret.'),
});

/** Where the credentials come from; `rules` add what one kind of config allows beyond the shape. */
const Credentials = (...rules: CelRule[]) =>
  withRules(
    Doc('Where the AWS credentials come from.', {
      source: Type.Union([Type.Literal('Secret'), Type.Literal('Environment')], {
        description:
          'Secret reads an AWS shared-credentials (INI) file from secretRef; Environment uses the worker\u2019s own AWS credential chain (environment variables, profile, instance role), and only a ClusterProviderConfig may.',
      }),
      secretRef: Type.Optional(SecretKeySelector),
    }),
    { rule: "self.source != 'Secret' || has(self.secretRef)", message: 'secretRef is required when source is Secret' },
    ...rules,
  );

/** The worker's own AWS identity is a cluster admin's to lend, never a namespace's to take. */
export const OWN_CREDENTIALS_ONLY =
  'a namespaced ProviderConfig uses credentials from a Secret of its own namespace (source Secret); Environment, the worker\u2019s own AWS identity, is only for ClusterProviderConfigs, which cluster admins create';

const connectionFields = {
  endpoint: Type.Optional(
    Doc('Overrides the AWS endpoint, for example to reach an EC2-compatible test server.', {
      url: DocString('Base URL of the endpoint, such as http://127.0.0.1:4566.', { pattern: '^https?://' }),
    }),
  ),
  profile: Type.Optional(DocString('The profile to read from the credentials file; defaults to "default".')),
};

export const ProviderConfigSpec = Doc('How to reach AWS.', {
  credentials: Credentials({ rule: "self.source == 'Secret'", message: OWN_CREDENTIALS_ONLY }),
  ...connectionFields,
});
export type ProviderConfigSpec = Static<typeof ProviderConfigSpec>;

export const ClusterProviderConfigSpec = Doc('How to reach AWS, and which namespaces may.', {
  credentials: Credentials(),
  ...connectionFields,
  namespaceSelector: Type.Optional(NamespaceSelector),
});
export type ClusterProviderConfigSpec = Static<typeof ClusterProviderConfigSpec>;

/** Nothing is reported yet; counting users (Crossplane's ProviderConfigUsage) may come later. */
export const ProviderConfigStatus = Doc('Observed state of the ProviderConfig.', {});
