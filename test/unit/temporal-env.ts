// A Temporal dev server for workflow tests: the locally built `temporal` binary through the
// testing package's existing-path option, with our search attributes registered.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createRequire } from 'node:module';
import { ensureTemporalBinary } from '../../stack/install';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../workflows/search-attributes';

export async function startTestEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: await ensureTemporalBinary() },
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
      extraArgs: ['--dynamic-config-value', 'frontend.workerHeartbeatsEnabled=false'],
    },
  });
}

export const workflowsPath = createRequire(import.meta.url).resolve('../../workflows/index.ts');

export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath, logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } });
}
