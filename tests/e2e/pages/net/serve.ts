// Builds this test page with vite (no PWA plugin, no app config) and serves it, with signaling on
// the same port, on 127.0.0.1 with an ephemeral port. Used by tests/e2e/net-*.test.ts and bench/net.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../../../scripts/app-server';

export interface NetPage {
  readonly base: string;
  readonly server: AppServer;
  stop(): Promise<void>;
}

export async function startNetPage(): Promise<NetPage> {
  const root = dirname(fileURLToPath(import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), 'pacto-net-page-'));
  await build({ root, configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true, target: 'es2022', minify: false } });
  const server = createAppServer(outDir);
  await new Promise<void>((r) => server.http.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
  return {
    base,
    server,
    async stop() {
      await server.signaling.close();
      server.http.closeAllConnections();
      await new Promise<void>((r) => server.http.close(() => r()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
