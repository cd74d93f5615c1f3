// A Temporal dev server for workflow tests: the locally built `temporal` binary through the
// testing package's existing-path option, with our search attributes registered.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { ensureTemporalBinary } from '#stack/install';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '#contract/search-attributes';
import { workflowsPath } from '#worker/workflows-path';

export async function startTestEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: await ensureTemporalBinary() },
      searchAttributes: ALL_SEARCH_ATTRIBUTE_KEYS,
      extraArgs: ['--dynamic-config-value', 'frontend.workerHeartbeatsEnabled=false'],
    },
  });
}

export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
}
