// Builds the screens harness page with vite (React plugin, no PWA) and serves it on 127.0.0.1 with
// an ephemeral port through the npm start server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { createAppServer } from '../../../../scripts/app-server';

export interface ScreensPage {
  readonly base: string;
  stop(): Promise<void>;
}

export async function startScreensPage(): Promise<ScreensPage> {
  const root = dirname(fileURLToPath(import.meta.url));
  const outDir = mkdtempSync(join(tmpdir(), 'pacto-screens-page-'));
  await build({ root, configFile: false, logLevel: 'error', plugins: [react()], build: { outDir, emptyOutDir: true, target: 'es2022' } });
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
