// Builds a test page folder with vite (no PWA plugin, no app config) into a temporary folder and
// serves it, with signaling on the same port, on 127.0.0.1 with an ephemeral port through the
// npm start server. Every test page's serve.ts is this with its own folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../../src/server/app';

export interface TestPage {
  readonly base: string;
  readonly server: AppServer;
  stop(): Promise<void>;
}

export async function servePage(root: string, options: { readonly name: string; readonly react?: boolean }): Promise<TestPage> {
  const outDir = mkdtempSync(join(tmpdir(), `pacto-${options.name}-page-`));
  await build({
    root,
    configFile: false,
    logLevel: 'error',
    plugins: options.react ? [react()] : [],
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: !!options.react },
  });
  const server = createAppServer(outDir);
  await server.listen(0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`,
    server,
    async stop() {
      await server.signaling.close();
      server.http.closeAllConnections();
      await new Promise<void>((r) => server.http.close(() => r()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
