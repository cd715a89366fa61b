#!/usr/bin/env node
// The `pacto` command: runs the TypeScript command line through tsx, so the engine the app uses
// is the very code the command line uses (no separate build to drift).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
