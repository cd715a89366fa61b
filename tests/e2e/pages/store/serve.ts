// Builds this test page with vite (no PWA plugin, no app config) and serves it on 127.0.0.1 with
// an ephemeral port through the npm start server. Used by the store e2e tests and the bench.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { createAppServer } from '../../../../scripts/app-server';

export interface StorePage {
  readonly base: string;
  stop(): Promise<void>;
}

export async function startStorePage(): Promise<StorePage> {
  const root = dirname(fileURLToPath(import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), 'pacto-store-page-'));
  await build({ root, configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022', minify: false } });
  const server = createAppServer(outDir);
  await new Promise<void>((r) => server.http.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
  return {
    base,
    async stop() {
      await server.signaling.close();
      server.http.closeAllConnections();
      await new Promise<void>((r) => server.http.close(() => r()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
