// A stranger on the internet sends the server requests no browser would: paths with a lone `%`,
// `//`, `//@`, backslashes, NULs, huge and repeated headers, and WebSocket upgrades on such paths.
// One such request used to end the whole process (app, signaling and relay, for every game on it:
// an unhandled URIError from decodeURIComponent, and `new URL()` throwing on `//`). Each batch
// goes to the real server process (`npm start`'s serve.ts, the app and the relay), and after each
// the process must still be alive and serve the app.
import { connect } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, tempDir, type ServeProcess } from './helpers/relay';

const dist = tempDir('pacto-malformed-dist-');
const relayDir = tempDir('pacto-malformed-relay-');
let server: ServeProcess;

beforeAll(async () => {
  mkdirSync(dist.dir, { recursive: true });
  writeFileSync(join(dist.dir, 'index.html'), '<!doctype html><title>Pacto</title>');
  server = await startServe({ SIGNAL_ONLY: '0', DIST: dist.dir, PACTO_RELAY_DIR: relayDir.dir, PACTO_PUSH: '0' });
});

afterAll(async () => {
  await server?.stop();
  dist.remove();
  relayDir.remove();
});

/** Sends raw bytes on a new connection and resolves with what came back (bounded in time). */
function raw(bytes: string | Buffer, waitMs = 1_500): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let got = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`;
const upgrade = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

/** The process is alive and serves the app. */
async function alive(): Promise<void> {
  expect(server.child.exitCode, server.output()).toBeNull();
  expect(server.child.signalCode, server.output()).toBeNull();
  const answer = await raw(get('/'));
  expect(answer, 'the app is still served').toMatch(/^HTTP\/1\.1 200/);
}

/** A seeded generator (xorshift32), so a failing case can be run again. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('requests no browser sends', () => {
  it('each request that used to end the process gets an answer or a closed socket, and the server lives on', async () => {
    await alive();
    for (const request of [
      get('/%'),
      get('//'),
      get('/%E0%A4%A'),
      `POST //@ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`,
      upgrade('//'),
      upgrade('//@'),
      upgrade('/%'),
    ]) {
      await raw(request);
      await alive();
    }
  });

  it('a seeded batch of malformed paths, headers and upgrades changes nothing', async () => {
    const next = rng(29);
    const pieces = ['%', '//', '@', '\\', '%00', '\u0000', '..', '%2e%2e', '?', '#', '%%', '%G0', '/relay', '/relay/v1', ':', '[', ']'];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const path = () => '/' + Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(pieces)).join('');
    for (let batch = 0; batch < 4; batch++) {
      const requests: (string | Buffer)[] = [];
      for (let i = 0; i < 40; i++) {
        const p = path();
        const kind = Math.floor(next() * 5);
        if (kind === 0) requests.push(get(p));
        else if (kind === 1) requests.push(upgrade(p));
        else if (kind === 2) requests.push(get(p, `X-Big: ${'a'.repeat(20_000)}\r\n`));
        else if (kind === 3) requests.push(get(p, 'X-Forwarded-For: 1.2.3.4\r\n'.repeat(200)));
        else requests.push(Buffer.from(`POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n\u0000\u0001%ab`, 'latin1'));
      }
      // Ten at a time: bounded in count and time, on loopback only.
      for (let i = 0; i < requests.length; i += 10) await Promise.all(requests.slice(i, i + 10).map((r) => raw(r, 800)));
      await alive();
    }
  });
});
