// Parent side of the multi-process tests: forks peer-process.ts and talks to it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { attachSignaling } from '../../../src/net/signal/server';
import type { Command, State } from './peer-process';

const SCRIPT = fileURLToPath(new URL('./peer-process.ts', import.meta.url));

export interface PeerProcess {
  readonly child: ChildProcess;
  request<T extends { type: string }>(cmd: Command, reply: T['type']): Promise<T>;
  state(): Promise<State>;
  /** Rejects, once, when the process ends before stop() (saying how: an exit code or a signal). */
  readonly died: Promise<never>;
  stop(): Promise<void>;
}

export async function startPeer(env: Record<string, string>): Promise<PeerProcess> {
  const child = fork(SCRIPT, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters: { type: string; resolve: (m: never) => void; reject: (e: Error) => void }[] = [];
  let exitCode: string | undefined;
  let stopping = false;
  let die: (e: Error) => void = () => {};
  const died = new Promise<never>((_, reject) => (die = reject));
  died.catch(() => {}); // only those who wait on it care
  child.on('message', (m: { type: string }) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m as never);
  });
  // A send racing the channel's close fails through its callback; anything else would be an
  // unhandled 'error' event, once per request, for as long as a test keeps polling a dead process.
  child.on('error', () => {});
  // One listener for the process's whole life (one per request leaked: MaxListenersExceededWarning).
  child.once('exit', (code, signal) => {
    exitCode = signal ?? String(code); // a signal says who ended it: a crash (SIGSEGV) or a kill from outside (SIGTERM)
    const e = new Error(`peer process ${child.pid} exited (${exitCode})`);
    for (const w of waiters.splice(0)) w.reject(new Error(`${e.message} while waiting for ${w.type}`));
    if (!stopping) die(e);
  });
  const next = <T>(type: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exitCode !== undefined) return reject(new Error(`peer process ${child.pid} exited (${exitCode}) before ${type} was asked for`));
      waiters.push({ type, resolve: resolve as (m: never) => void, reject });
    });
  await Promise.race([next('ready'), died]);
  const request = <T extends { type: string }>(cmd: Command, reply: T['type']): Promise<T> => {
    const p = next<T>(reply);
    if (exitCode === undefined && child.connected) {
      child.send(cmd, (e) => {
        if (e === null) return;
        const i = waiters.findIndex((w) => w.type === reply);
        if (i >= 0) waiters.splice(i, 1)[0]!.reject(new Error(`peer process ${child.pid}: ${cmd.type} not sent (${e.message})`));
      });
    }
    // Not connected but not yet exited: the 'exit' event rejects the waiter.
    return p;
  };
  return {
    child,
    request,
    state: () => request<State>({ type: 'state' }, 'state'),
    died,
    stop: async () => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      if (child.connected) child.send({ type: 'exit' }, () => {});
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Our signaling server on 127.0.0.1 (a free port) for the peer processes: its URL, and close(). */
export async function startSignaling(): Promise<{ readonly url: string; close(): Promise<void> }> {
  const http = createServer();
  const signaling = attachSignaling(http);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      await signaling.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
