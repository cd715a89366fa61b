// Relay servers and clients for tests: a real server on 127.0.0.1 (in this process, or the real
// `pacto-server`, the compiled server, in a child process that can be killed), a raw WebSocket speaking frames, and a
// real redis-server from Debian on a free port with its files in a temp dir.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { createAppServer, type AppServer, type AppServerOptions } from '../../../src/server/app';
import type { ServerFrame } from '../../../src/net/relay/protocol';

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface LocalRelay {
  readonly server: AppServer;
  /** ws://127.0.0.1:port/relay */
  readonly url: string;
  readonly base: string;
  readonly logs: string[];
  /** Where the embedded store keeps its files. */
  readonly dir: string;
  stop(): Promise<void>;
}

/** A relay in this process; its embedded store in a fresh temp dir unless `relay.dir` is given. */
export async function startRelay(options: AppServerOptions = {}): Promise<LocalRelay> {
  const logs: string[] = [];
  const dir = options.relay?.dir ?? tempDir('pacto-relay-').dir;
  const server = createAppServer(undefined, { ...options, relay: { ...options.relay, dir }, log: (l) => logs.push(l) });
  await server.ready;
  await server.listen(0, '127.0.0.1');
  const port = (server.http.address() as AddressInfo).port;
  return {
    server,
    url: `ws://127.0.0.1:${port}/relay`,
    base: `http://127.0.0.1:${port}`,
    logs,
    dir,
    stop: () => server.stop(),
  };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

/** The `pacto-server` command (bin/pacto-server.mjs), which runs the compiled server. */
export const SERVER_COMMAND = fileURLToPath(new URL('../../../bin/pacto-server.mjs', import.meta.url));

/** The server compiled from the current sources, once per test process (`npm test`'s pretest
 *  builds it too; a test file run alone must not meet an older build). */
let built: Promise<unknown> | undefined;
export function serverBuilt(): Promise<unknown> {
  built ??= import('../../../bin/build-server.mjs').then((m: { buildServer: () => Promise<string> }) => m.buildServer());
  return built;
}

/** The real `pacto-server` (`npm run signal` with SIGNAL_ONLY=1, the default here) in a child
 *  process under plain Node, configured by environment. */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  await serverBuilt();
  const child = fork(SERVER_COMMAND, [], {
    execArgv: [],
    env: { ...process.env, SIGNAL_ONLY: '1', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`pacto-server exited (${code}): ${out}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    port,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A WebSocket that speaks raw frames, for what no honest client would send. */
export interface RawClient {
  readonly ws: WebSocket;
  readonly inbox: ServerFrame[];
  readonly closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown): void;
  /** The next frame with this rid (or matching `pred`), waiting for it. */
  answer(rid: string, timeoutMs?: number): Promise<ServerFrame>;
  until(pred: (f: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
}

export async function rawClient(url: string, localAddress?: string): Promise<RawClient> {
  const ws = new WebSocket(url, localAddress ? { localAddress } : {});
  const inbox: ServerFrame[] = [];
  const waiters: { pred: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }[] = [];
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as ServerFrame;
    inbox.push(f);
    for (const w of [...waiters]) {
      if (!w.pred(f)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(f);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const until = (pred: (f: ServerFrame) => boolean, timeoutMs = 10_000): Promise<ServerFrame> => {
    const seen = inbox.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no such frame in time')), timeoutMs);
      waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(t);
          resolve(f);
        },
      });
    });
  };
  return {
    ws,
    inbox,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    answer: (rid, timeoutMs) => until((f) => 'rid' in f && f.rid === rid, timeoutMs),
    until,
  };
}

export async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Runs a redis-cli command against it; returns stdout as bytes. */
  cli(...args: string[]): Promise<Buffer>;
  stop(): Promise<void>;
}

/** Debian's redis-server on a free port, no persistence, its working files in a temp dir. */
export async function startRedis(): Promise<RedisServer> {
  const tmp = tempDir('pacto-redis-');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp.dir, '--protected-mode', 'yes'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const ready = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 10_000);
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(t);
          resolve(true);
        }
      });
      child.once('exit', () => {
        clearTimeout(t);
        resolve(false);
      });
    });
    if (!ready) {
      child.kill('SIGKILL');
      if (attempt < 3) continue;
      throw new Error(`redis-server did not start: ${out}`);
    }
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      dir: tmp.dir,
      cli: (...args) =>
        new Promise((resolve, reject) => {
          const c = spawn('redis-cli', ['-p', String(port), '--raw', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
          const chunks: Buffer[] = [];
          c.stdout!.on('data', (d: Buffer) => chunks.push(d));
          c.once('exit', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`redis-cli ${args.join(' ')} exited ${code}`))));
        }),
      stop: async () => {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
        tmp.remove();
      },
    };
  }
}
