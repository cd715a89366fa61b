// Issue 30: nothing a client sends can throw out of a handler. 10^4 malformed HTTP requests and
// WebSocket frames (tests/net/helpers/malformed.ts: targets with `%`, `//`, `@`, `\` and NULs, huge
// and repeated headers, bad framing, garbage to /relay/v1, bad upgrades, frames no client sends)
// go over raw TCP to the real server in its own process (the built app, signaling and the relay),
// in batches of 500. After each batch the process must be alive and answering: /healthz says 200,
// a WebSocket on /relay answers a ping, and signaling on "/" carries a publish from one member of a
// topic to another. At the end its standard error holds no stack trace, no handler reached the
// server's error handler (`handler-error` in /metrics), no WebSocket is left open and its
// memory stayed bounded. Nineteen batches go to a server with limits wide enough for the inputs to
// reach the handlers; one goes to a server with the default limits, which refuses most at the door.
// A failure names its seed and inputs: those in flight when the process exited, or the first input
// of the batch that, sent again alone, makes a handler throw; `malformed(seed, index)` gives their
// bytes. PACTO_FUZZ_SEED runs another seed.
import { request } from 'node:http';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../ui/browser-app';
import { malformed, sendBatch, sendRaw, type SendResult } from './helpers/malformed';
import { rawClient, startServe, tempDir, type ServeProcess } from './helpers/relay';

const SEED = Number(process.env.PACTO_FUZZ_SEED ?? 30);
const BATCH = 500;
const BATCHES = 20;
/** Inputs come from this address; the checks from another, so no limit spent by the fuzz falls on them. */
const FUZZ_FROM = '127.0.0.1';
const CHECK_FROM = '127.0.0.2';
const CHECK_MS = 10_000;
const MiB = 1024 * 1024;
/** What the server's standard error must never hold: a handler that threw (caught by Fastify,
 *  which the server logs as "http: a handler failed" or "http: a WebSocket handler failed"), or a
 *  stack trace. */
const THROWN =
  /http: (refused (a request|an upgrade)|a handler failed|a WebSocket handler failed)|\n\s+at \S+|uncaught|unhandled|TypeError|RangeError|URIError|SyntaxError|ReferenceError/i;
const HANDLER_ERROR = 'pacto_http_refusals{reason="handler-error"}';

/** Wide enough that the inputs reach the handlers instead of being refused at the door. */
const WIDE_LIMITS = {
  maxConnections: 100_000,
  maxConnectionsPerAddress: 100_000,
  maxNewConnectionsPerSecond: 100_000,
  burstNewConnections: 100_000,
  maxMessagesPerSecond: 100_000,
  maxHttpConnections: 100_000,
  maxHttpConnectionsPerAddress: 100_000,
  maxRequestsPerSecond: 100_000,
  burstRequests: 100_000,
  maxRoomsPerAddressPerHour: 100_000,
  maxNotifiesPerAddress: 100_000,
  maxNotifiesPerRoom: 100_000,
};

interface Fuzzed {
  readonly server: ServeProcess;
  /** Standard error alone (ServeProcess.output mixes it with the access log). */
  readonly stderr: () => string;
  /** The inputs being sent when the process exited, if it did. */
  readonly inFlight: Set<number>;
  readonly inFlightAtExit: () => number[] | null;
  readonly dir: { remove(): void };
}

let app: { readonly dir: string; remove(): void };

async function serve(limits: object | null): Promise<Fuzzed> {
  const dir = tempDir('pacto-fuzz-relay-');
  const server = await startServe({ SIGNAL_ONLY: '0', DIST: app.dir, PACTO_RELAY_DIR: dir.dir, PACTO_LIMITS: limits ? JSON.stringify(limits) : '' });
  let stderr = '';
  server.child.stderr!.on('data', (d) => (stderr += d));
  const inFlight = new Set<number>();
  let atExit: number[] | null = null;
  server.child.once('exit', () => (atExit = [...inFlight]));
  return { server, stderr: () => stderr, inFlight, inFlightAtExit: () => atExit, dir };
}

function within<T>(what: string, p: Promise<T>, ms = CHECK_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** GET `path` from the checking address, on a connection of its own. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return within(
    `GET ${path}`,
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, localAddress: CHECK_FROM, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    }),
  );
}

async function metrics(port: number): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await get(port, '/metrics')).body.split('\n')) {
    const m = /^(pacto_[a-z_]+(?:\{[^}]*\})?) ([0-9.e+-]+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** A real relay client on /relay: its ping is answered. */
async function relayAnswers(port: number, n: number): Promise<void> {
  const client = await within('relay WebSocket', rawClient(`ws://127.0.0.1:${port}/relay`, CHECK_FROM));
  try {
    client.send({ t: 'ping', rid: `check-${n}` });
    expect(await client.answer(`check-${n}`, CHECK_MS)).toEqual({ t: 'pong', rid: `check-${n}` });
  } finally {
    client.ws.terminate();
  }
}

function openSignaling(port: number): Promise<{ ws: WebSocket; next(pred: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { localAddress: CHECK_FROM });
  const inbox: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    inbox.push(JSON.parse(d.toString()) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const next = (pred: (m: Record<string, unknown>) => boolean) =>
    within(
      'signaling message',
      new Promise<Record<string, unknown>>((resolve) => {
        const look = () => {
          const found = inbox.find(pred);
          if (found) resolve(found);
          else waiters.push(look);
        };
        look();
      }),
    );
  return within(
    'signaling WebSocket',
    new Promise((resolve, reject) => {
      ws.once('open', () => resolve({ ws, next }));
      ws.once('error', reject);
    }),
  );
}

/** Two y-webrtc-style members of a topic on "/": one's publish reaches the other. */
async function signalingWorks(port: number, n: number): Promise<void> {
  const topic = `fuzz-check-${SEED}-${n}`;
  const a = await openSignaling(port);
  const b = await openSignaling(port);
  try {
    a.ws.send(JSON.stringify({ type: 'subscribe', topics: [topic] }));
    a.ws.send(JSON.stringify({ type: 'ping' }));
    await a.next((m) => m.type === 'pong'); // a's subscribe is in
    b.ws.send(JSON.stringify({ type: 'subscribe', topics: [topic] }));
    b.ws.send(JSON.stringify({ type: 'publish', topic, data: { check: n } }));
    const got = await a.next((m) => m.type === 'publish');
    expect(got).toMatchObject({ type: 'publish', topic, data: { check: n }, clients: 2 });
  } finally {
    a.ws.terminate();
    b.ws.terminate();
  }
}

/** The process lives, and its app, health check, relay and signaling all answer. */
async function answering(f: Fuzzed, n: number): Promise<void> {
  const { child, port } = f.server;
  const why = () => {
    const inFlight = (f.inFlightAtExit() ?? []).map((i) => `#${i} ${malformed(SEED, i).label}`).join('\n  ');
    return `seed ${SEED}; the inputs in flight when it exited:\n  ${inFlight}\n${f.stderr().slice(-4_000)}`;
  };
  expect(child.exitCode, why()).toBeNull();
  expect(child.signalCode, why()).toBeNull();
  expect((await get(port, '/healthz')).status, why()).toBe(200);
  const page = await get(port, '/');
  expect(page.status).toBe(200);
  expect(page.body).toContain('<!doctype html>');
  await relayAnswers(port, n);
  await signalingWorks(port, n);
}

/** Sends the batch's inputs again one at a time: the first after which the server complains. */
async function culprit(f: Fuzzed, results: readonly SendResult[]): Promise<string> {
  for (const { input } of [...results].sort((x, y) => x.input.index - y.input.index)) {
    const mark = f.stderr().length;
    const before = (await metrics(f.server.port)).get(HANDLER_ERROR) ?? 0;
    await sendRaw(f.server.port, input, { localAddress: FUZZ_FROM });
    // /metrics answers after the input was handled; its round trip also lets the log line arrive.
    const after = (await metrics(f.server.port)).get(HANDLER_ERROR) ?? 0;
    if (after > before || THROWN.test(f.stderr().slice(mark))) return `input #${input.index} (${input.label})`;
  }
  return 'no single input, sent again alone';
}

async function batch(f: Fuzzed, b: number): Promise<SendResult[]> {
  const started = performance.now();
  const mark = f.stderr().length;
  const before = (await metrics(f.server.port)).get(HANDLER_ERROR) ?? 0;
  const results = await sendBatch(f.server.port, SEED, b * BATCH, (b + 1) * BATCH, { concurrency: 32, localAddress: FUZZ_FROM, inFlight: f.inFlight });
  expect(results).toHaveLength(BATCH);
  await answering(f, b);
  const m = await metrics(f.server.port);
  const complaint = THROWN.exec(f.stderr().slice(mark));
  if (complaint || (m.get(HANDLER_ERROR) ?? 0) > before) {
    const line = complaint
      ? f
          .stderr()
          .slice(mark)
          .split('\n')
          .find((l) => THROWN.test(l))
      : `${HANDLER_ERROR} went up`;
    expect.fail(`seed ${SEED}, batch ${b}: a handler threw (${line}); the first input that does it: ${await culprit(f, results)}`);
  }
  const statuses = new Map<string, number>();
  const ended = new Map<string, number>();
  for (const r of results) {
    const s = /^HTTP\/1\.[01] (\d{3})/.exec(r.status)?.[1] ?? (r.status === '' ? 'none' : 'other');
    statuses.set(s, (statuses.get(s) ?? 0) + 1);
    ended.set(r.ended, (ended.get(r.ended) ?? 0) + 1);
  }
  // The server answers garbage with 4xx (or closes): never with a 500, the sign of a handler that failed.
  const failed = results.filter((r) => /^HTTP\/1\.[01] 500/.test(r.status)).map((r) => `#${r.input.index} ${r.input.label}`);
  expect(failed, `seed ${SEED}`).toEqual([]);
  console.log(
    `fuzz batch ${b}: ${BATCH} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s, answers ${JSON.stringify(Object.fromEntries(statuses))}, ended ${JSON.stringify(Object.fromEntries(ended))}, RSS ${((m.get('pacto_process_resident_memory_bytes') ?? 0) / MiB).toFixed(0)} MiB`,
  );
  return results;
}

/** What must hold once a server has taken its share: nothing thrown, nothing left open, memory bounded. */
async function clean(f: Fuzzed, rssBefore: number): Promise<void> {
  const { port } = f.server;
  const after = await metrics(port);
  const stderr = f.stderr();
  // Caught by Fastify: counted, and logged as "http: a handler failed" (or "a WebSocket handler failed").
  expect(after.get(HANDLER_ERROR) ?? 0, stderr.slice(-4_000)).toBe(0);
  expect(stderr, 'a handler that threw, an uncaught exception or a stack trace').not.toMatch(THROWN);
  // Every fuzzing socket was destroyed: the server holds no WebSocket for any of them.
  await expect.poll(async () => (await metrics(port)).get('pacto_connections'), { timeout: 15_000 }).toBe(0);
  console.log(`fuzz: ${JSON.stringify(Object.fromEntries([...after].filter(([k]) => /refus|signaling_messages|relay_(appends|fetches)|upgrades/.test(k))))}`);
  const rss = after.get('pacto_process_resident_memory_bytes')!;
  console.log(`fuzz: RSS ${(rssBefore / MiB).toFixed(0)} MiB before, ${(rss / MiB).toFixed(0)} MiB after`);
  expect(rss).toBeGreaterThan(0);
  expect(rss - rssBefore, `RSS went from ${rssBefore} to ${rss}`).toBeLessThan(256 * MiB);
  expect(rss).toBeLessThan(768 * MiB);
}

beforeAll(async () => {
  app = await buildApp();
});

afterAll(() => {
  app?.remove();
});

describe(`10^4 malformed requests and frames (seed ${SEED})`, () => {
  let wide: Fuzzed;
  let rssBefore = 0;
  const started = performance.now();
  let sent = 0;

  beforeAll(async () => {
    wide = await serve(WIDE_LIMITS);
    await answering(wide, -1);
    rssBefore = (await metrics(wide.server.port)).get('pacto_process_resident_memory_bytes')!;
  });

  afterAll(async () => {
    await wide?.server.stop();
    wide?.dir.remove();
  });

  for (let b = 0; b < BATCHES - 1; b++) {
    it(`batch ${b} (inputs ${b * BATCH} to ${(b + 1) * BATCH - 1}) with wide limits: the process lives and answers`, async () => {
      sent += (await batch(wide, b)).length;
    });
  }

  it('with wide limits: nothing thrown, no WebSocket left open, memory bounded', async () => {
    await clean(wide, rssBefore);
  });

  describe('with the default limits', () => {
    let narrow: Fuzzed;
    let rss = 0;

    beforeAll(async () => {
      narrow = await serve(null);
      await answering(narrow, -1);
      rss = (await metrics(narrow.server.port)).get('pacto_process_resident_memory_bytes')!;
    });

    afterAll(async () => {
      await narrow?.server.stop();
      narrow?.dir.remove();
    });

    it(`batch ${BATCHES - 1} (inputs ${(BATCHES - 1) * BATCH} to ${BATCHES * BATCH - 1}): the process lives and answers, and refuses at the door`, async () => {
      sent += (await batch(narrow, BATCHES - 1)).length;
      // The default limits did their part: WebSocket upgrades past the burst were refused.
      expect((await metrics(narrow.server.port)).get('pacto_upgrades_refused')).toBeGreaterThan(0);
    });

    it('with the default limits: nothing thrown, no WebSocket left open, memory bounded', async () => {
      await clean(narrow, rss);
    });
  });

  // Bounded in time by sendRaw (4 s at most an input, 32 at once) and the checks' own timeouts.
  it('sent exactly 10^4 inputs', () => {
    expect(sent).toBe(10_000);
    console.log(`fuzz: ${sent} inputs, seed ${SEED}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
});
