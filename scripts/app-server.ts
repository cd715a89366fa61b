// The HTTP server behind `npm start`: the built PWA from a folder, and signaling on WebSocket upgrades
// of the same host and port, so an invite made on the page works with no other setting.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { attachSignaling, type SignalingServer } from '../src/net/signal/server';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.md': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const rel = normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '');
  let file = rel.startsWith('..') ? join(root, 'index.html') : join(root, rel);
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
  } catch {
    file = join(root, 'index.html'); // single-page app: unknown paths load the app
  }
  try {
    const body = await readFile(file);
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    // The page and the service worker revalidate so that updates reach installed apps.
    if (file.endsWith('sw.js') || file.endsWith('index.html')) headers['cache-control'] = 'no-cache';
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

export interface AppServer {
  readonly http: Server;
  readonly signaling: SignalingServer;
}

/** `root` undefined: signaling only (`npm run signal`). */
export function createAppServer(root?: string): AppServer {
  const dir = root === undefined ? undefined : resolve(root);
  const http = createServer((req, res) => {
    if (dir === undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('pacto signaling server');
      return;
    }
    void serveStatic(dir, req, res);
  });
  return { http, signaling: attachSignaling(http) };
}
