// What a fresh cluster needs before Chronoplane's controllers can do anything:
// the CRDs, the AWS credentials Secret, and the default ClusterProviderConfig pointing
// the AWS provider at moto. Everything is applied, so running it again is harmless.
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kubectl } from './kubectl';
import { repoRoot } from './paths';
import { applyAdmissionPolicies } from './admission-policies';

const CRDS_DIR = join(repoRoot, 'deploy', 'crds');
/** The tenants' aggregated ClusterRoles (generate/rbac.ts), installed with the CRDs they grant. */
const RBAC_DIR = join(repoRoot, 'deploy', 'rbac');
const SYSTEM_NAMESPACE = 'chronoplane-system';
export const AWS_CREDENTIALS_SECRET = { namespace: SYSTEM_NAMESPACE, name: 'aws-credentials', key: 'credentials' } as const;

/** moto accepts any keys; these only have to be well-formed. */
const DUMMY_AWS_CREDENTIALS = ['[default]', 'aws_access_key_id = testing', 'aws_secret_access_key = testing', ''].join('\n');

/** Applies all of it; running it again is harmless. A step that fails throws with kubectl's message. */
export async function bootstrapCluster(kubeconfigPath: string, ec2Endpoint: string): Promise<void> {
  await applyCrds(kubeconfigPath);
  await applyAwsCredentialsSecret(kubeconfigPath);
  await applyDefaultProviderConfig(kubeconfigPath, ec2Endpoint);
}

/** Applies deploy/crds/, waits until the API serves them, then applies deploy/rbac/. */
export async function applyCrds(kubeconfigPath: string): Promise<void> {
  // Server-side: generated CRDs can outgrow the last-applied annotation of client-side apply.
  await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', CRDS_DIR]);
  await kubectl(kubeconfigPath, ['wait', '--for=condition=Established', '--timeout=60s', '-f', CRDS_DIR]);
  // Right after the CRDs, and enforced before anything else: the tenancy rules (generate/admission.ts).
  await applyAdmissionPolicies(kubeconfigPath);
  await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', RBAC_DIR]);
}

async function applyAwsCredentialsSecret(kubeconfigPath: string): Promise<void> {
  const manifests = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SYSTEM_NAMESPACE } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: AWS_CREDENTIALS_SECRET.namespace, name: AWS_CREDENTIALS_SECRET.name },
      type: 'Opaque',
      stringData: { [AWS_CREDENTIALS_SECRET.key]: DUMMY_AWS_CREDENTIALS },
    },
  ];
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], manifests.map((manifest) => stringify(manifest)).join('---\n'));
}

/**
 * The ClusterProviderConfig named "default", aimed at moto: what a managed resource without
 * providerConfigRef uses, from every namespace.
 */
export async function applyDefaultProviderConfig(kubeconfigPath: string, ec2Endpoint: string): Promise<void> {
  const providerConfig = {
    apiVersion: 'aws.chronoplane.io/v1alpha1',
    kind: 'ClusterProviderConfig',
    metadata: { name: 'default' },
    spec: {
      credentials: {
        source: 'Secret',
        secretRef: { ...AWS_CREDENTIALS_SECRET },
      },
      endpoint: { url: ec2Endpoint },
    },
  };
  await kubectl(kubeconfigPath, ['apply', '-f', '-'], stringify(providerConfig));
}
