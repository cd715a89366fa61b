// `npm start` (after the build): the PWA and signaling on http://127.0.0.1:4173/.
// `npm run signal`: signaling alone on ws://127.0.0.1:4444. HOST=0.0.0.0 serves the LAN.
import { createAppServer } from './app-server';

const host = process.env.HOST ?? '127.0.0.1';
const signalOnly = process.env.SIGNAL_ONLY === '1';
const port = Number(process.env.PORT ?? (signalOnly ? 4444 : 4173));
const { http } = createAppServer(signalOnly ? undefined : (process.env.DIST ?? 'dist'));
http.listen(port, host, () => {
  const where = `${host}:${port}`;
  console.log(signalOnly ? `Pacto signaling server on ws://${where}` : `Pacto is served on http://${where}/ (signaling on ws://${where}/)`);
});
