// `pacto-server`: the Pacto server as a program of its own (compiled to JavaScript by
// bin/build-server.mjs and run by plain Node; `npm start` builds and runs it).
//   pacto-server                serves the PWA (DIST, default ./dist), signaling and the relay on
//                               http://127.0.0.1:4173/; SIGNAL_ONLY=1 signaling and the relay alone on
//                               4444. HOST=0.0.0.0 serves the LAN; PORT=0 picks a free port.
//   pacto-server backup DIR     a consistent copy of the embedded store while the server runs
//   pacto-server restore DIR    puts a copy back (the server stopped)
// Every setting is read from the environment by optionsFromEnv (options.ts); docs/hosting.md lists them.
import { createAppServer } from './app';
import { backupCommand } from './backup';
import { optionsFromEnv } from './options';

async function serve(): Promise<void> {
  const host = process.env.HOST ?? '127.0.0.1';
  const signalOnly = process.env.SIGNAL_ONLY === '1';
  const port = Number(process.env.PORT ?? (signalOnly ? 4444 : 4173));
  const server = createAppServer(signalOnly ? undefined : (process.env.DIST ?? 'dist'), optionsFromEnv());
  const bound = await server.listen(port, host);
  const where = `${host}:${bound}`;
  const relay = server.relay ? `, relay on ws://${where}/relay${process.env.PACTO_REDIS_URL ? ' (Redis)' : ''}` : '';
  console.log(signalOnly ? `Pacto signaling server on ws://${where}${relay}` : `Pacto is served on http://${where}/ (signaling on ws://${where}/${relay})`);
  // Started by a parent process (tests): tell it the port.
  if (process.send) process.send({ type: 'listening', port: bound });
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      void server.close().finally(() => server.http.close(() => process.exit(0)));
      server.http.closeIdleConnections();
      setTimeout(() => process.exit(0), 3000).unref();
    });
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'backup' || command === 'restore') process.exitCode = await backupCommand([command, ...rest]);
else if (command === undefined || command === 'serve') await serve();
else {
  console.error(`pacto-server: unknown command ${command} (serve, backup DIR or restore DIR)`);
  process.exitCode = 2;
}
