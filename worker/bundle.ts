// `node --import tsx worker/bundle.ts OUT.js`: bundles the workflow code ahead of time. A
// worker given CHRONOPLANE_WORKFLOW_BUNDLE=OUT.js starts faster and never loads webpack,
// which would otherwise stay in its memory (about 150 MiB) for as long as it runs.
import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFile } from 'node:fs/promises';
import { workflowsPath } from './workflows-path';

const out = process.argv[2];
if (!out) throw new Error('usage: worker/bundle.ts OUT.js');
const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath() });
await writeFile(out, code);
