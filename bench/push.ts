// Duties in the background (issue 13): push received -> reveal uploaded by the service worker, on a
// 20-year game. What the worker runs on a push (src/ui/background/wake.ts: open the game from
// IndexedDB, fetch what is new from the relay over HTTP, reduce, sign the REVEAL now due, upload it)
// runs here in Node, on fake-indexeddb and the real relay over HTTP on 127.0.0.1: the same code
// without the browser around it. Each phone of a seven-player 20-year game (the protocol bench's
// scripted game) holds the whole game and its sealed orders of the open phase; the relay then gets
// the last LOCK, and each phone's wake is timed until its REVEAL is on the relay.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import { createAppServer } from '../src/server/app';
import { commitTurn, finalOrders, lockBallot, openMessage, reduceLog, secretBytes, wireContextOf, type Message } from '../src/protocol';
import { appendMessages, createGameDoc } from '../src/net/log-doc';
import { httpAppend, httpFetch } from '../src/net/relay/client';
import { relayKeysFor } from '../src/net/relay/keys';
import { openPactoStore } from '../src/store';
import { wake } from '../src/ui/background/wake';
import { rng } from '../tests/protocol/helpers';
import { scriptedGame, scriptedSeats } from './protocol';
import { report, summarise } from './report';

const YEARS = Number(process.env.PACTO_PUSH_BENCH_YEARS ?? 20);
const SEED = 11;
/** Phones timed (each its own store): the seats but the one whose LOCK comes last. */
const PHONES = 3;
const TARGET_MS = 3_000;

/** The log as Yjs updates of at most 30 entries (each within what a peer or relay update may carry). */
async function updatesOf(log: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const doc = createGameDoc();
  const out: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => out.push(u));
  for (let i = 0; i < log.length; i += 30) appendMessages(doc, log.slice(i, i + 30));
  doc.destroy();
  return out;
}

export async function benchPush(): Promise<void> {
  const game = scriptedGame(YEARS, SEED);
  const seats = scriptedSeats(SEED);
  const r = rng(99);
  const password = 'bench-push-password-0001';
  const keys = relayKeysFor(game.gameId, password);
  const dir = mkdtempSync(join(tmpdir(), 'pacto-bench-push-'));
  const server = createAppServer(undefined, { relay: { dir }, log: () => undefined });
  await server.listen(0, '127.0.0.1');
  const relay = `ws://127.0.0.1:${(server.http.address() as AddressInfo).port}/relay`;
  try {
    // The open phase: every power seals (holds), signs its FINAL and its LOCK; the last LOCK is held back.
    const log = [...game.log];
    let view = reduceLog(game.gameId, log);
    const c = view.current!;
    const secrets = new Map<string, { commit: string; secret: bigint; nonce: Uint8Array }>();
    let seq = 1_000_000;
    for (const s of seats) {
      const nonce = r.bytes(24);
      const t = commitTurn(
        s.me,
        game.gameId,
        view,
        s.power,
        [],
        { secret: r.bytes(32), nonce, entropy: r.bytes(32), coin: r.bytes(32) },
        { seq: seq++, time: c.openedAt + 60_000 },
      );
      if (!t.ok) throw new Error('bench: seal refused');
      secrets.set(s.power, { commit: t.message.id, secret: t.secret, nonce });
      log.push(t.message.bytes);
    }
    for (const s of seats)
      log.push(finalOrders(s.me, game.gameId, c.key, s.power, secrets.get(s.power)!.commit, { seq: seq++, time: c.openedAt + 61_000 }).bytes);
    view = reduceLog(game.gameId, log);
    const messages = new Map<string, Message>();
    for (const b of log) {
      const m = openMessage(b);
      if (m.ok) messages.set(m.message.id, m.message);
    }
    const wire = wireContextOf(game.gameId, messages.values());
    const locks = seats.map((s) => lockBallot(s.me, game.gameId, view, messages, { seq: seq++, time: c.openedAt + 62_000 }).bytes);
    const held = locks.pop()!;
    log.push(...locks);
    // The relay limits each caller's bytes a second; a phone's outbox waits and tries again, so does this setup.
    for (const u of await updatesOf(log)) {
      for (;;) {
        try {
          await httpAppend(relay, keys, u);
          break;
        } catch (e) {
          if ((e as { code?: string }).code !== 'rate-limited') throw e;
          await new Promise((res) => setTimeout(res, 1_000));
        }
      }
    }

    // Each phone: its identity and sealed orders in its store, the game's record; a first wake takes
    // in the 20 years from the relay (untimed: the phone held the game before the push).
    const phones: { store: Awaited<ReturnType<typeof openPactoStore>>; power: string }[] = [];
    for (const s of seats.slice(0, PHONES)) {
      const store = await openPactoStore('pacto', new IDBFactory());
      const seed = rng(SEED);
      // scriptedSeats draws each seat's two keys in order: skip to this seat's.
      const idx = seats.indexOf(s);
      for (let i = 0; i < idx; i++) seed.bytes(64);
      const sign = seed.bytes(32);
      const box = seed.bytes(32);
      const parts = [sign, box];
      await store.ensureIdentityKeys(() => parts.shift()!, Date.now());
      const mine = secrets.get(s.power)!;
      await store.addSeal(
        { gameId: game.gameId, phase: c.key, power: s.power },
        { key: secretBytes(mine.secret), nonce: mine.nonce, hash: mine.commit, created: c.openedAt + 60_000 },
      );
      await store.putGame({ id: game.gameId, title: 'bench', created: Date.now(), password, signaling: [], relays: [relay], notify: { on: true } });
      const first = await wake({ store, payload: null, languages: ['en'] });
      if (first[0]?.appended.includes('reveal')) throw new Error('bench: a reveal was due before the last LOCK');
      phones.push({ store, power: s.power });
    }

    // The last LOCK reaches the relay; then each phone gets its push.
    await httpAppend(relay, keys, (await updatesOf([held]))[0]!);
    const ms: number[] = [];
    for (const p of phones) {
      const t0 = performance.now();
      const res = await wake({ store: p.store, payload: null, languages: ['en'] });
      const t = performance.now() - t0;
      if (!res[0]?.appended.includes('reveal') || res[0].uploaded === 0) throw new Error(`bench: no reveal uploaded (${JSON.stringify(res[0])})`);
      ms.push(t);
    }
    // The reveals are on the relay.
    const all = new Y.Doc();
    let after = '';
    for (;;) {
      const page = await httpFetch(relay, keys, after);
      for (const u of page.updates) Y.applyUpdate(all, u);
      if (!page.more) break;
      after = page.next;
    }
    const reveals = all
      .getArray<Uint8Array>('log')
      .toArray()
      .filter((item) => {
        // Phones upload their entries in the compact wire form (protocol 6): read with the START's key list.
        const m = openMessage(item, undefined, wire);
        return m.ok && m.message.payload.type === 'reveal' && m.message.payload.phase === c.key;
      }).length;
    if (reveals < PHONES) throw new Error(`bench: ${reveals} reveals on the relay`);
    const s = summarise(ms);
    report(`Duties in the background: push received -> reveal uploaded by the service worker's code (Node, fake-indexeddb, relay over HTTP)`, [
      [
        `${YEARS}-year game, ${log.length + 1} entries; median of ${PHONES} phones`,
        `${s.median.toFixed(0)} ms (target < ${TARGET_MS} ms) · max ${Math.max(...ms).toFixed(0)} ms`,
      ],
    ]);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPush();
