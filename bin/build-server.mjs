// Compiles the server (src/server/main.ts and what it imports from src/) into one JavaScript file,
// dist-server/pacto-server.mjs, that plain Node runs: no TypeScript loader in production. Packages
// stay outside the file (imported from node_modules as they are: lmdb is native, and a package's
// own files are its maintainers' build). `npm run build` runs it; `npm start` and the tests run the
// result. Prints nothing unless it fails.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = join(root, 'dist-server', 'pacto-server.mjs');

export async function buildServer(outfile = SERVER_BUNDLE) {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'src/server/main.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'error',
    banner: { js: '// Built by bin/build-server.mjs from src/server: edit the sources, not this file.' },
  });
  return outfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildServer();
