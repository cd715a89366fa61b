// `npm start`: serve the built PWA from dist/ and a signaling server on the same host and port
// (WebSocket upgrades go to signaling), so an invite made on this page works with no other setting.
// `npm run signal`: the signaling server alone (SIGNAL_ONLY=1).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { attachSignaling } from '../src/net/signal/server';

const host = process.env.HOST ?? '127.0.0.1';
const signalOnly = process.env.SIGNAL_ONLY === '1';
const port = Number(process.env.PORT ?? (signalOnly ? 4444 : 4173));
const root = resolve(process.env.DIST ?? 'dist');

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

async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  let path = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
  if (path.startsWith('..')) path = '';
  let file = join(root, path);
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
  } catch {
    file = join(root, 'index.html'); // single-page app: unknown paths load the app
  }
  try {
    const body = await readFile(file);
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    // The service worker and the page must revalidate so updates reach installed apps.
    if (file.endsWith('sw.js') || file.endsWith('index.html')) headers['cache-control'] = 'no-cache';
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

const server = createServer((req, res) => {
  if (signalOnly) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('pacto signaling server');
    return;
  }
  void serveStatic(req, res);
});
attachSignaling(server);
server.listen(port, host, () => {
  const where = `${host}:${port}`;
  if (signalOnly) console.log(`Pacto signaling server on ws://${where}`);
  else console.log(`Pacto is served on http://${where}/ (signaling on ws://${where}/)`);
});
