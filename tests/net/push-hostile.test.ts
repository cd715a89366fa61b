// A push endpoint on a host the attacker runs (anyone can make a room and register one): it answers
// every push with a body that never ends, or drips one byte at a time. The relay's push sender used
// to keep the whole answer in one string (512 MiB ended the process in a RangeError) and had only an
// idle timeout (one byte every 2 s held a push for 26 s). Now it reads at most PUSH_ANSWER_BYTES of
// an answer and each push has a total deadline. A real https server on 127.0.0.1, bounded in bytes
// and time.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newVapidKeys, parseVapidKeys, pushSender, PUSH_ANSWER_BYTES } from '../../src/net/relay/server/push';
import { makeCert, type TestCert } from './helpers/push-service';

let cert: TestCert;
let server: Server;
let port = 0;
/** Bytes the hostile service managed to write to the relay, per path. */
const written = new Map<string, number>();

// A device's keys as a browser makes them (P-256 public key, 16-byte auth secret), base64url.
const P256DH = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';
const AUTH = 'tBHItJI5svbpez7KI4CCXg';

beforeAll(async () => {
  cert = makeCert();
  server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    req.resume();
    const path = req.url ?? '';
    written.set(path, 0);
    res.writeHead(201, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    if (path.startsWith('/flood')) {
      // A body that never ends, as fast as the relay reads it (bounded: 64 MiB at most).
      const pump = () => {
        while ((written.get(path) ?? 0) < 64 * 1024 * 1024) {
          written.set(path, (written.get(path) ?? 0) + chunk.length);
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => written.set(path, written.get(path) ?? 0));
      pump();
    } else {
      // One byte every 200 ms, for at most 20 s.
      let n = 0;
      const timer = setInterval(() => {
        if (res.destroyed || n++ > 100) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write('a');
        written.set(path, n);
      }, 200);
      res.on('close', () => clearInterval(timer));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  cert?.remove();
});

describe('a push service that answers with hostile bodies', () => {
  it('a body that never ends is cut after a few KiB: the push counts as sent, the relay holds no more of it', async () => {
    const sender = pushSender(parseVapidKeys(newVapidKeys())!, { allowHosts: ['127.0.0.1'], ca: [cert.certPem], timeoutMs: 10_000 });
    const rss = process.memoryUsage().rss;
    const out = await sender.send({ endpoint: `https://127.0.0.1:${port}/flood/1`, p256dh: P256DH, auth: AUTH }, null, 'room', 60);
    sender.close();
    expect(out.outcome).toBe('sent');
    // The service could write more than the cap into socket buffers, but far less than its 64 MiB.
    expect(written.get('/flood/1')!).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    expect(PUSH_ANSWER_BYTES).toBeLessThanOrEqual(64 * 1024);
  });

  it('an answer that drips one byte at a time ends at the push deadline, not 20 s later', async () => {
    const sender = pushSender(parseVapidKeys(newVapidKeys())!, { allowHosts: ['127.0.0.1'], ca: [cert.certPem], timeoutMs: 1_500 });
    const t0 = Date.now();
    const out = await sender.send({ endpoint: `https://127.0.0.1:${port}/drip/1`, p256dh: P256DH, auth: AUTH }, null, 'room', 60);
    const took = Date.now() - t0;
    sender.close();
    expect(out.outcome).toBe('failed');
    expect(out.detail).toContain('did not answer within');
    // The idle timeout alone never fires: a byte comes every 200 ms.
    expect(took).toBeLessThan(6_000);
    expect(written.get('/drip/1')!).toBeLessThan(40);
  });
});
