// What a fresh cluster needs before Chronoplane's controllers can do anything:
// the CRDs, the AWS credentials Secret, and the default ProviderConfig pointing
// the AWS provider at moto. Everything is applied, so running it again is harmless.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kubectl } from './kubectl';
import { repoRoot } from './paths';
import { progress } from './progress';

export const CRDS_DIR = join(repoRoot, 'deploy', 'crds');
export const SYSTEM_NAMESPACE = 'chronoplane-system';
export const AWS_CREDENTIALS_SECRET = { namespace: SYSTEM_NAMESPACE, name: 'aws-credentials', key: 'credentials' } as const;
const PROVIDER_CONFIG_CRD = 'providerconfigs.aws.chronoplane.io';

/** moto accepts any keys; these only have to be well-formed. */
const DUMMY_AWS_CREDENTIALS = ['[default]', 'aws_access_key_id = testing', 'aws_secret_access_key = testing', ''].join('\n');

export interface BootstrapResult {
  crdsApplied: boolean;
  providerConfigApplied: boolean;
  /** What failed, e.g. a CRD the API server rejects; empty when all went well. */
  problems: string[];
}

/**
 * Applies all of it. A step that fails (typically a freshly generated CRD the API
 * server rejects) is reported in `problems` rather than thrown, so the servers that
 * are already running stay usable while the manifest gets fixed.
 */
export async function bootstrapCluster(kubeconfigPath: string, ec2Endpoint: string): Promise<BootstrapResult> {
  const problems: string[] = [];
  const attempt = async (step: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await step();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
      return false;
    }
  };
  const crdsApplied = await attempt(() => applyCrds(kubeconfigPath));
  await attempt(async () => {
    await applyAwsCredentialsSecret(kubeconfigPath);
    return true;
  });
  const providerConfigApplied = await attempt(() => applyDefaultProviderConfig(kubeconfigPath, ec2Endpoint));
  return { crdsApplied, providerConfigApplied, problems };
}

/** Applies deploy/crds/ and waits until the API serves them; false if there are none yet. */
export async function applyCrds(kubeconfigPath: string): Promise<boolean> {
  try {
    await access(CRDS_DIR);
  } catch {
    progress(`warning: ${CRDS_DIR} does not exist yet (npm run gen makes it); no CRDs applied`);
    return false;
  }
  // Server-side: generated CRDs can outgrow the last-applied annotation of client-side apply.
  await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', CRDS_DIR]);
  await kubectl(kubeconfigPath, ['wait', '--for=condition=Established', '--timeout=60s', '-f', CRDS_DIR]);
  return true;
}

export async function applyAwsCredentialsSecret(kubeconfigPath: string): Promise<void> {
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

/** The ProviderConfig named "default", aimed at moto; skipped (false) until its CRD exists. */
export async function applyDefaultProviderConfig(kubeconfigPath: string, ec2Endpoint: string): Promise<boolean> {
  const crds = (await kubectl(kubeconfigPath, ['get', 'crd', '-o', 'name'])).stdout;
  if (!crds.split('\n').includes(`customresourcedefinition.apiextensions.k8s.io/${PROVIDER_CONFIG_CRD}`)) {
    progress(`warning: CRD ${PROVIDER_CONFIG_CRD} is not installed; default ProviderConfig not applied`);
    return false;
  }
  const providerConfig = {
    apiVersion: 'aws.chronoplane.io/v1alpha1',
    kind: 'ProviderConfig',
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
  return true;
}
