// Plain HTTP had no per-address or total cap and no header timeout: 1,100 half-sent requests from
// one address (slowloris) stopped the app from loading for everyone. Now an address holds at most
// maxHttpConnectionsPerAddress sockets (IPv6: per /64), the server at most maxHttpConnections, and
// a request whose headers are not in within headersTimeoutMs is closed. The real serve.ts process
// on 127.0.0.1 with small limits; the attacker on 127.0.0.7, a friend on 127.0.0.8. Bounded in
// count (300 sockets) and time.
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, tempDir, type ServeProcess } from './helpers/relay';

const relayDir = tempDir('pacto-http-limits-');
let server: ServeProcess | undefined;
const sockets: Socket[] = [];

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await server?.stop();
  relayDir.remove();
});

/** A socket from `localAddress` that sends a request's first line and one header, never the end. */
function halfSent(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(s);
    s.on('error', () => undefined);
    s.resume(); // read whatever the server answers (a 408), so its end is seen
    s.once('connect', () => {
      s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n');
      resolve(s);
    });
  });
}

/** A whole GET from `localAddress`: the status, or 0 if no answer within 5 s. */
function get(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress });
    let got = '';
    const timer = setTimeout(() => {
      s.destroy();
      resolve(0);
    }, 5_000);
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0));
    });
    s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  });
}

const closed = (s: Socket) => s.destroyed || s.readableEnded;

describe('plain HTTP under a slowloris', () => {
  it('one address holding hundreds of half-sent requests does not keep a friend out; they are closed at the header timeout', async () => {
    server = await startServe({
      PACTO_RELAY_DIR: relayDir.dir,
      PACTO_PUSH: '0',
      PACTO_LIMITS: JSON.stringify({ maxHttpConnectionsPerAddress: 20, maxHttpConnections: 200, headersTimeoutMs: 3_000 }),
    });
    const port = server.port;
    const slow: Socket[] = [];
    for (let i = 0; i < 300; i++) slow.push(await halfSent(port, '127.0.0.7'));
    // The address's sockets past its cap are closed at once.
    await expect.poll(() => slow.filter(closed).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(280);
    // A friend on another address loads the app.
    expect(await get(port, '127.0.0.8')).toBe(200);
    // The ones left are closed once their headers are overdue.
    await expect.poll(() => slow.filter(closed).length, { timeout: 15_000 }).toBe(300);
    expect(await get(port, '127.0.0.7')).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });
});
