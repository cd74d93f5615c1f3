import { createRequire } from 'node:module';

/** The workflow bundle's entry point: workflows only, no activity or I/O code. */
export const workflowsPath = createRequire(import.meta.url).resolve('../workflows/index.ts');
