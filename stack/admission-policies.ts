// Installs deploy/admission/ (generate/admission.ts) and waits until the API server enforces it. A
// ValidatingAdmissionPolicy is not enforced the moment it is created: the API server loads it
// and its binding a little later. Until then a tenant could slip a cross-namespace reference
// past it, so a stack is not ready before a probe is refused.
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CROSS_NAMESPACE_REFUSAL } from '#generate/admission';
import { kubectl } from './kubectl';
import { repoRoot } from './paths';
import { CommandFailedError } from './run-command';

const ADMISSION_DIR = join(repoRoot, 'deploy', 'admission');

const ENFORCEMENT_TIMEOUT_MS = 60_000;
const PROBE_INTERVAL_MS = 200;

/** Never stored: it is only ever sent as a server-side dry run, which the policy must refuse. */
const PROBE = {
  apiVersion: 'ec2.aws.chronoplane.io/v1alpha1',
  kind: 'VPC',
  metadata: { name: 'chronoplane-admission-probe', namespace: 'default' },
  spec: {
    forProvider: { region: 'us-east-1', cidrBlock: '10.0.0.0/16' },
    references: [{ dependsOn: { apiVersion: 'v1', kind: 'ConfigMap', name: 'probe', namespace: 'kube-system' } }],
  },
};

export async function applyAdmissionPolicies(kubeconfigPath: string): Promise<void> {
  await kubectl(kubeconfigPath, ['apply', '--server-side', '--force-conflicts', '-f', ADMISSION_DIR]);
  await waitUntilEnforced(kubeconfigPath);
}

async function waitUntilEnforced(kubeconfigPath: string): Promise<void> {
  const deadline = Date.now() + ENFORCEMENT_TIMEOUT_MS;
  let last = 'the probe was admitted';
  for (;;) {
    try {
      await kubectl(kubeconfigPath, ['create', '--dry-run=server', '-f', '-'], stringify(PROBE));
      last = 'the probe was admitted';
    } catch (error) {
      if (!(error instanceof CommandFailedError)) throw error;
      if (error.output.includes(CROSS_NAMESPACE_REFUSAL)) return;
      last = error.output;
    }
    if (Date.now() > deadline) {
      throw new Error(`the admission policies in ${ADMISSION_DIR} are not enforced after ${ENFORCEMENT_TIMEOUT_MS / 1000} s: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
}
