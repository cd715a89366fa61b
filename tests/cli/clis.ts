// The command line twice: `main` from the TypeScript sources, and `main` from the bundle that the
// `pacto` command runs, loaded the way bin/pacto.mjs loads it (rebuilt first if a source changed).
// The CLI tests run against both, so a broken or stale bundle fails them.
import { DEFAULT_BUNDLE, loadCli, type Main } from '../../bin/bundle.mjs';
import { main as sourceMain } from '../../src/cli/main';

const bundled = await loadCli({ bundle: DEFAULT_BUNDLE });
if (bundled.via === 'tsx') throw new Error(`the command line's bundle could not be built or loaded: ${bundled.reason}`);

export const bundleMain: Main = bundled.main;

export const CLIS: readonly (readonly [string, Main])[] = [
  ['sources', sourceMain],
  ['bundle', bundleMain],
];
