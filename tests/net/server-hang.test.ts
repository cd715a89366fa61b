// Requests the router takes but the old server never answered, found by attacking the Fastify
// server (issue 30): a relay API target spelled another way (`//relay/v1`, `/relay/%761`), which the
// route took and the relay's own path check declined, and an upgrade whose target the router
// cannot read, answered 400 but left open. Each held its socket for ever (no Node timeout covers a
// request already received, nor an upgrade's socket), so 32 addresses could hold every socket of
// the server. Also: the relay API and unknown routes count against the per-address request limit.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, tempDir, type ServeProcess } from './helpers/relay';

const relayDir = tempDir('pacto-hang-relay-');
let server: ServeProcess;

beforeAll(async () => {
  server = await startServe({
    PACTO_RELAY_DIR: relayDir.dir,
    PACTO_PUSH: '0',
    PACTO_ACCESS_LOG: '0',
    PACTO_LIMITS: JSON.stringify({ maxRequestsPerMinute: 30 }),
  });
});

afterAll(async () => {
  await server?.stop();
  relayDir.remove();
});

/** Sends `bytes` from `from` and resolves with what came back and whether the server closed the
 *  socket, within `waitMs`. */
function exchange(bytes: string, from: string, waitMs = 4_000): Promise<{ got: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ port: server.port, host: '127.0.0.1', localAddress: from });
    let got = '';
    let closedByServer = false;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ got, closedByServer });
    }, waitMs);
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('end', () => (closedByServer = true));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ got, closedByServer: closedByServer || got !== '' });
    });
    socket.write(bytes);
  });
}

const status = (got: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);

describe('requests the router takes are answered', () => {
  it('the relay API under any spelling of its path gets an answer, not a socket held open', async () => {
    let n = 0;
    for (const target of ['//relay/v1', '/relay//v1', '///relay///v1', '/relay/%761', '/%72elay/v1', '/relay/v1/'])
      for (const method of ['OPTIONS', 'POST', 'GET']) {
        const body = method === 'POST' ? '{"t":"ping"' : '';
        const from = `127.0.0.${20 + (n++ % 8)}`;
        const { got } = await exchange(`${method} ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`, from);
        expect(status(got), `${method} ${target}`).toBeGreaterThanOrEqual(200);
      }
  });

  it('an upgrade the router cannot read is answered 400 and its socket closed', async () => {
    for (const target of ['/%', '/a%', '/%c0%af']) {
      const { got, closedByServer } = await exchange(
        `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
        '127.0.0.40',
      );
      expect(status(got), target).toBe(400);
      expect(closedByServer, target).toBe(true);
    }
  });

  it('the relay API and unknown routes count against the per-address request limit', async () => {
    const statuses = async (request: string, from: string): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push(status((await exchange(request, from, 2_000)).got));
      return out;
    };
    const options = await statuses('OPTIONS /relay/v1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '127.0.0.50');
    expect(options.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
    expect(options).toContain(429);
    const unknown = await statuses('DELETE /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '127.0.0.51');
    expect(unknown[0]).toBe(404);
    expect(unknown).toContain(429);
  });
});
