// `npm start` (after the build): the PWA, signaling and the relay on http://127.0.0.1:4173/.
// `npm run signal`: signaling and the relay alone on ws://127.0.0.1:4444. HOST=0.0.0.0 serves the
// LAN; PORT=0 picks a free port. The relay keeps its blobs in .pacto/relay (PACTO_RELAY_DIR), or in
// Redis with PACTO_REDIS_URL; every setting is read by optionsFromEnv in app-server.ts.
import { createAppServer, optionsFromEnv } from './app-server';

const host = process.env.HOST ?? '127.0.0.1';
const signalOnly = process.env.SIGNAL_ONLY === '1';
const port = Number(process.env.PORT ?? (signalOnly ? 4444 : 4173));
const server = createAppServer(signalOnly ? undefined : (process.env.DIST ?? 'dist'), optionsFromEnv());
const { http } = server;
await server.ready;
http.listen(port, host, () => {
  const address = http.address();
  const where = `${host}:${typeof address === 'object' && address ? address.port : port}`;
  const relay = server.relay ? `, relay on ws://${where}/relay${process.env.PACTO_REDIS_URL ? ' (Redis)' : ''}` : '';
  console.log(signalOnly ? `Pacto signaling server on ws://${where}${relay}` : `Pacto is served on http://${where}/ (signaling on ws://${where}/${relay})`);
  // Started by a parent process (tests): tell it the port.
  if (process.send && typeof address === 'object' && address) process.send({ type: 'listening', port: address.port });
});
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void server.close().finally(() => http.close(() => process.exit(0)));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
