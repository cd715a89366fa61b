#!/usr/bin/env node
// The `pacto` command. It runs src/cli/main.ts from a bundle built from the current sources
// (bin/bundle.mjs says how and when), so it starts without the TypeScript loader while running
// the very engine the app runs; without a usable bundle it runs the sources through tsx.
import { loadCli } from './bundle.mjs';

const started = performance.now();
const cli = await loadCli();
const loaded = performance.now();
process.exitCode = await cli.main(process.argv.slice(2));
if (process.env.PACTO_CLI_TRACE) {
  // Milliseconds: `started` since the process began (node's own start-up and loading this file),
  // `load` finding, checking and loading the command, `run` the command itself, `cpu` the
  // processor time (user + system) the process has used so far, which a busy machine inflates less.
  const { user, system } = process.cpuUsage();
  const trace = {
    via: cli.via,
    started,
    load: loaded - started,
    run: performance.now() - loaded,
    cpu: (user + system) / 1000,
    ...(cli.reason ? { reason: cli.reason } : {}),
  };
  process.stderr.write(`pacto-cli ${JSON.stringify(trace)}\n`);
}
