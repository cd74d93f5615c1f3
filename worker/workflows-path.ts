import { createRequire } from 'node:module';

/**
 * The workflow bundle's entry point: workflows only, no activity or I/O code. Resolved when
 * asked, not at import: a worker built into one file (stack/build.ts) runs from a prebuilt
 * workflow bundle and has no source tree next to it.
 */
export const workflowsPath = (): string => createRequire(import.meta.url).resolve('../workflows/index.ts');
