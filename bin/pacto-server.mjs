#!/usr/bin/env node
// The `pacto-server` command: the compiled server (bin/build-server.mjs builds it into
// dist-server/; `npm run build` does). Arguments: none or `serve`, `backup DIR`, `restore DIR`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist-server/pacto-server.mjs', import.meta.url));
if (!existsSync(bundle)) {
  console.error('pacto-server: the server is not built yet: run `npm run build` (or `node bin/build-server.mjs`)');
  process.exit(1);
}
await import(bundle);
