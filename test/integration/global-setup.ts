// Starts the real servers once for the whole integration run (kube-apiserver with etcd and
// kube-controller-manager, the Temporal dev server, moto, and two remote clusters for Objects to
// land in, whose kubeconfigs become Secrets crossplane-system/<name>-kubeconfig), installs the
// CRDs and the default ProviderConfig, and hands the endpoints to the test files. Each file then
// runs its own worker and watcher against them (see harness.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureInstalled } from '#stack/install';
import { REMOTE_CLUSTER_NAMES, startTestStack } from '#stack/test-stack';
import { bundleWorkflowCode } from '#stack/controllers';
import { CONTROLLER_USER_GROUP } from '#stack/controller-identity';
import { MOTO_COUNT_REQUESTS_ENV } from '#bench/ec2-call-counter';

export default async function setup(project: TestProject) {
  await ensureInstalled();
  // moto counts requests by access key, action and error code, so tests can assert, for
  // example, that a deletion made no call EC2 refused with DependencyViolation.
  process.env[MOTO_COUNT_REQUESTS_ENV] = '1';
  const dir = await mkdtemp(join(tmpdir(), 'chronoplane-it-'));
  // Every file starts its own workers (some start a dozen); bundled once, as `npm run up` does,
  // the workflow code spares each start a webpack build of 10 s or more on a busy machine.
  const [stack, workflowBundle] = await Promise.all([
    // The chart's ServiceAccount's requests are audited: least-privilege.test.ts reads which
    // verbs a worker and watcher running as it used.
    startTestStack({ dir, bootstrap: true, remoteClusters: REMOTE_CLUSTER_NAMES, auditUserGroups: [CONTROLLER_USER_GROUP] }),
    bundleWorkflowCode(join(dir, 'workflow-bundle.js')),
  ]);
  project.provide('kubeconfigPath', stack.kubeconfigPath);
  project.provide('temporalAddress', stack.temporalAddress);
  project.provide('ec2Endpoint', stack.ec2Endpoint);
  project.provide('kubeAuditLog', stack.kubeAuditLog);
  project.provide('workflowBundle', workflowBundle);
  project.provide('remoteClusters', stack.remoteClusters);
  console.log(`integration stack up: Temporal UI ${stack.uiUrl}, kubeconfig ${stack.kubeconfigPath}`);
  return async () => {
    await stack.stop();
    // Keep the state when asked, to look at a failed run in the UI or with kubectl.
    if (process.env.CHRONOPLANE_KEEP_TEST_STACK !== '1') await rm(dir, { recursive: true, force: true });
  };
}
