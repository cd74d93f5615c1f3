// The cluster-scoped AWS ProviderConfig: where credentials come from and which endpoint to call.
// Its status never holds credentials; only the name of the Secret that does.
import { Type, type Static } from '@sinclair/typebox';
import { Doc, DocString, withRules } from '../../apis/schema';
import type { KindApi } from '../../runtime/managed-kind';

export const providerConfigApi: KindApi = {
  group: 'aws.chronoplane.io',
  version: 'v1alpha1',
  kind: 'ProviderConfig',
  plural: 'providerconfigs',
  singular: 'providerconfig',
  shortNames: ['awspc'],
  categories: ['providerconfig', 'aws'],
  description: 'How Chronoplane authenticates to AWS and which endpoint it calls.',
};

export const SecretKeySelector = Doc('A key in a Secret.', {
  namespace: DocString('Namespace of the Secret.'),
  name: DocString('Name of the Secret.'),
  key: DocString('Key within the Secret.'),
});

export const ProviderConfigSpec = Doc('How to reach AWS.', {
  credentials: withRules(
    Doc('Where the AWS credentials come from.', {
      source: Type.Union([Type.Literal('Secret'), Type.Literal('Environment')], {
        description:
          'Secret reads an AWS shared-credentials (INI) file from secretRef; Environment uses the worker\u2019s own AWS credential chain (environment variables, profile, instance role).',
      }),
      secretRef: Type.Optional(SecretKeySelector),
    }),
    { rule: "self.source != 'Secret' || has(self.secretRef)", message: 'secretRef is required when source is Secret' },
  ),
  endpoint: Type.Optional(
    Doc('Overrides the AWS endpoint, for example to reach an EC2-compatible test server.', {
      url: DocString('Base URL of the endpoint, such as http://127.0.0.1:4566.', { pattern: '^https?://' }),
    }),
  ),
  profile: Type.Optional(DocString('The profile to read from the credentials file; defaults to "default".')),
});
export type ProviderConfigSpec = Static<typeof ProviderConfigSpec>;

/** Nothing is reported yet; counting users (Crossplane's ProviderConfigUsage) may come later. */
export const ProviderConfigStatus = Doc('Observed state of the ProviderConfig.', {});
