#!/usr/bin/env node
// The `chronoplane` command (package.json "bin"): runs cli/main.ts through tsx, as every other
// program in this repository runs.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
