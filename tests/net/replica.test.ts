// The replica's own rules: local entries stored before they are published, the carrier's fresh
// Yjs ids, anti-entropy that heals what Yjs cannot see and that a lying peer cannot turn into doc
// growth, and every field of an anti-entropy message checked.
import * as Y from 'yjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AntiEntropyLink, decodeAntiEntropy, encodeDigest, encodeEntries, encodeIds, GameReplica, PublishError, type EntryStorage } from '../../src/net';
import { QUOTAS, sendChat } from '../../src/protocol';
import { identity, rng, startedGame, T0, view } from '../protocol/helpers';
import { fastVerifier, meshPhone, sameIds } from './helpers/mesh';
import { lotGame } from './helpers/lot-game';
import { nativeSignMessage } from '../native-ed25519';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memoryStorage(events: string[]): EntryStorage & { entries: Map<string, Uint8Array>; failed: Set<string> } {
  const entries = new Map<string, Uint8Array>();
  const failed = new Set<string>();
  return {
    entries,
    failed,
    load: async () => ({ entries: [...entries.values()], failed: [...failed] }),
    save: async (put, remove) => {
      await sleep(5);
      for (const e of put) entries.set(e.id, e.bytes);
      for (const id of remove) entries.delete(id);
      events.push(`stored ${put.length}`);
    },
    saveFailed: async (hashes) => {
      for (const h of hashes) failed.add(h);
    },
  };
}

describe('the replica', () => {
  it('stores its own entries before they reach the doc, and refuses one over quota before anything', async () => {
    const game = startedGame(31);
    const events: string[] = [];
    const storage = memoryStorage(events);
    const doc = new Y.Doc();
    doc.on('update', () => events.push('doc'));
    const replica = await GameReplica.open({ gameId: game.gameId, doc, storage, verifier: fastVerifier, self: game.byPower.austria.me.id });
    await replica.publish(game.log);
    expect(events).toEqual([`stored ${game.log.length}`, 'doc']);
    expect(storage.entries.size).toBe(game.log.length);
    const v = view(game);
    const austria = game.byPower.austria;
    for (let i = 0; i < QUOTAS.commit; i++) await replica.publish([austria.commit(game.gameId, v, [], T0 + i).bytes]);
    const extra = austria.commit(game.gameId, v, [], T0 + 99);
    expect(replica.preview(extra.bytes)).toMatchObject({ kind: 'refused', reason: 'quota' });
    await expect(replica.publish([extra.bytes])).rejects.toBeInstanceOf(PublishError);
    expect(storage.entries.has(extra.id)).toBe(false);
    expect(doc.getArray('log').length).toBe(game.log.length + QUOTAS.commit);
  });

  it("writes a burst of peers' entries that arrives during a write as one relaxed batch; its own entries strictly", async () => {
    const game = startedGame(33);
    const events: string[] = [];
    const storage = memoryStorage(events);
    const calls: [number, boolean][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const gated: EntryStorage = {
      ...storage,
      save: async (put, remove, strict) => {
        calls.push([put.length, strict]);
        if (calls.length === 1) await gate;
        await storage.save(put, remove, strict);
      },
    };
    const austria = game.byPower.austria;
    const replica = await GameReplica.open({ gameId: game.gameId, storage: gated, verifier: fastVerifier, self: austria.me.id });
    // One entry at a time, as updates from several peers arrive: the first starts a write, the rest wait.
    for (const bytes of game.log) replica.receiveEntries([bytes], { name: 'peer', origin: 'peer' });
    expect(replica.admission.size).toBe(game.log.length);
    const flushed = replica.flush();
    release();
    await flushed;
    expect(calls).toEqual([
      [1, false],
      [game.log.length - 1, false],
    ]);
    expect([...storage.entries.keys()].sort()).toEqual([...replica.admission.ids()].sort());
    // This phone's own entry is on disk (strict) before publish resolves.
    const own = austria.commit(game.gameId, view(game), [], T0);
    await replica.publish([own.bytes]);
    expect(calls.at(-1)).toEqual([1, true]);
    expect(storage.entries.has(own.id)).toBe(true);
  });

  it('puts an entry that came without its doc item back into the doc under a fresh client id', async () => {
    const game = startedGame(32);
    const p = await meshPhone('carrier', game.gameId, { clientID: 5 });
    p.replica.receiveEntries(game.log, { name: 'direct', origin: 'direct' });
    expect(p.replica.admission.size).toBe(game.log.length);
    expect(p.doc.getArray('log').length).toBe(0);
    // The carrier's timer (5 ms here) fires however late a loaded machine runs it: wait for its effect, bounded.
    await expect.poll(() => p.doc.getArray('log').length, { timeout: 10_000, interval: 10 }).toBe(game.log.length);
    expect(p.doc.clientID).toBe(5);
    const clients = [...p.doc.store.clients.keys()];
    expect(clients).toHaveLength(1);
    expect(clients[0]).not.toBe(5);
  });

  it('carries entries that arrived as a Uint8Array subclass (a data channel hands over Buffers)', async () => {
    // simple-peer gives y-webrtc's data channel messages as Buffer (the buffer polyfill in a
    // browser, Node's Buffer here): a Uint8Array subclass, which Yjs refuses to insert
    // ("Unexpected content type in insert operation"), so the carrier threw on every try.
    const game = startedGame(36);
    const p = await meshPhone('carrier', game.gameId);
    const half = Math.floor(game.log.length / 2);
    p.replica.receiveEntries(
      game.log.slice(0, half).map((b) => Buffer.from(b)),
      { name: 'direct', origin: 'direct' },
    );
    const sink = new AntiEntropyLink(p.replica, { name: 'peer', origin: 'peer' }, () => undefined);
    sink.receive(Buffer.from(encodeEntries(game.log.slice(half))));
    expect(p.replica.admission.size).toBe(game.log.length);
    expect(() => p.replica.carryNow(true)).not.toThrow();
    expect(p.doc.getArray('log').length).toBe(game.log.length);
    for (const id of p.replica.admission.ids()) expect(p.replica.bytesOf(id)!.constructor).toBe(Uint8Array);
  });

  it('anti-entropy heals two phones whose Yjs states agree but whose entries differ', async () => {
    const game = startedGame(33);
    const [a, b] = [await meshPhone('a', game.gameId), await meshPhone('b', game.gameId)];
    // Same Yjs id, different entries: Yjs on either side thinks there is nothing to send.
    const under = (bytes: Uint8Array[]) => {
      const d = new Y.Doc();
      d.clientID = 9;
      d.getArray<Uint8Array>('log').push(bytes);
      return Y.encodeStateAsUpdate(d);
    };
    a.replica.receive(under(game.log.slice(0, 10)), { name: 'x', origin: 'x' });
    b.replica.receive(under([...game.log.slice(0, 9), game.log[12]!]), { name: 'x', origin: 'x' });
    expect(Y.encodeStateVector(a.doc)).toEqual(Y.encodeStateVector(b.doc));
    let sent = 0;
    const ab: AntiEntropyLink = new AntiEntropyLink(a.replica, { name: 'b', origin: b }, (m) => ((sent += m.length), setTimeout(() => ba.receive(m), 0)));
    const ba: AntiEntropyLink = new AntiEntropyLink(b.replica, { name: 'a', origin: a }, (m) => ((sent += m.length), setTimeout(() => ab.receive(m), 0)));
    ab.sendDigest();
    await expect.poll(() => sameIds(a, b), { timeout: 10_000 }).toBe(true);
    expect(a.replica.admission.size).toBe(11);
    expect(sent).toBeLessThan(8_000);
  });

  it("anti-entropy compares the lot ballot's entries too: honest phones refuse none of each other's messages", async () => {
    const game = lotGame(36);
    const lot = game.entries.filter((e) => e.phase === 'lot');
    expect(lot.map((e) => e.type)).toEqual(expect.arrayContaining(['lock', 'reveal']));
    const [a, b] = [await meshPhone('a', game.gameId), await meshPhone('b', game.gameId)];
    const all = game.entries.map((e) => e.bytes);
    // b lacks one REVEAL of the lot, and nothing after it depends on b holding it.
    const missing = lot.find((e) => e.type === 'reveal')!.bytes;
    a.replica.receiveEntries(all, { name: 's', origin: 's' });
    b.replica.receiveEntries(
      all.filter((x) => x !== missing),
      { name: 's', origin: 's' },
    );
    expect(a.replica.admission.size).toBe(all.length);
    expect(b.replica.admission.size).toBe(all.length - 1);
    expect([...a.replica.digest().keys()]).toContain('phase:lot');
    const ab: AntiEntropyLink = new AntiEntropyLink(a.replica, { name: 'b', origin: b }, (m) => setTimeout(() => ba.receive(m), 0));
    const ba: AntiEntropyLink = new AntiEntropyLink(b.replica, { name: 'a', origin: a }, (m) => setTimeout(() => ab.receive(m), 0));
    ab.sendDigest();
    ba.sendDigest();
    await expect.poll(() => sameIds(a, b), { timeout: 10_000 }).toBe(true);
    await sleep(50);
    expect([...a.replica.reports(), ...b.replica.reports()]).toEqual([]);
    // A bucket name an honest phone never makes is still refused.
    for (const bucket of ['phase:lots', 'phase:LOT', 'phase:lot-1901', 'lot']) {
      expect(decodeAntiEntropy(encodeIds({ bucket, lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: [], reply: false }))).toBeNull();
      expect(decodeAntiEntropy(encodeDigest({ from: '', to: '~', buckets: [{ name: bucket, count: 1, hash: 'ab'.repeat(8) }] }))).toBeNull();
    }
    const before = a.replica.admission.ids().join();
    ab.receive(encodeIds({ bucket: 'phase:lots', lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: [], reply: false }));
    expect(a.replica.reports()).toEqual([{ kind: 'message-refused', peer: 'b', reason: 'bad-anti-entropy-message' }]);
    expect(a.replica.admission.ids().join()).toBe(before);
  });

  it('a peer that claims to lack everything gets bytes, at most once a minute per entry, and no doc grows', async () => {
    const game = startedGame(34);
    const a = await meshPhone('a', game.gameId);
    a.replica.receive(
      (() => {
        const d = new Y.Doc();
        d.getArray<Uint8Array>('log').push(game.log);
        return Y.encodeStateAsUpdate(d);
      })(),
      { name: 's', origin: 's' },
    );
    const length = a.doc.getArray('log').length;
    const received: Uint8Array[] = [];
    let now = 0;
    const link = new AntiEntropyLink(a.replica, { name: 'liar', origin: 'liar' }, (m) => received.push(m), { now: () => now });
    const lie = encodeIds({ bucket: 'lobby', lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: [], reply: true });
    link.receive(lie);
    const entries = received.map(decodeAntiEntropy).flatMap((m) => (m?.kind === 'entries' ? m.entries : []));
    expect(entries.length).toBe(game.log.length);
    received.length = 0;
    link.receive(lie);
    expect(received).toEqual([]);
    now += 61_000;
    link.receive(lie);
    expect(received.length).toBeGreaterThan(0);
    await sleep(20);
    expect(a.doc.getArray('log').length).toBe(length);
  });

  it('pages large buckets, and checks every field of what a peer sends', async () => {
    const game = startedGame(35);
    const r = rng(35);
    const me = identity(1);
    const chats = Array.from({ length: 2100 }, (_, i) =>
      nativeSignMessage(me, { type: 'chat', game: game.gameId, keys: {}, nonce: 'A'.repeat(32), sealed: 'B'.repeat(8), seq: 100 + i, time: 0 }),
    );
    expect(chats[0]).toEqual(sendChat(me, game.gameId, { keys: {}, nonce: 'A'.repeat(32), sealed: 'B'.repeat(8) }, 100).bytes);
    const [a, b] = [await meshPhone('a', game.gameId), await meshPhone('b', game.gameId)];
    a.replica.receiveEntries([...game.log, ...chats], { name: 's', origin: 's' });
    b.replica.receiveEntries(game.log, { name: 's', origin: 's' });
    expect(a.replica.admission.size).toBe(game.log.length + chats.length);
    const sizes: number[] = [];
    const ab: AntiEntropyLink = new AntiEntropyLink(a.replica, { name: 'b', origin: b }, (m) => (sizes.push(m.length), setTimeout(() => ba.receive(m), 0)));
    const ba: AntiEntropyLink = new AntiEntropyLink(b.replica, { name: 'a', origin: a }, (m) => (sizes.push(m.length), setTimeout(() => ab.receive(m), 0)));
    ba.sendDigest();
    await expect.poll(() => sameIds(a, b), { timeout: 20_000 }).toBe(true);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    // Hostile messages: refused and reported, never thrown, never applied.
    const good = encodeIds({ bucket: 'chat', lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: ['1'.repeat(32), '2'.repeat(32)], reply: false });
    expect(decodeAntiEntropy(good)).not.toBeNull();
    const unsorted = encodeIds({ bucket: 'chat', lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: ['2'.repeat(32), '1'.repeat(32)], reply: false });
    expect(decodeAntiEntropy(unsorted)).toBeNull();
    expect(decodeAntiEntropy(encodeIds({ bucket: 'chat', lo: '3'.repeat(32), hi: 'f'.repeat(32), ids: ['1'.repeat(32)], reply: false }))).toBeNull();
    expect(decodeAntiEntropy(encodeDigest({ from: '', to: '~', buckets: [{ name: 'phase:../x', count: 1, hash: 'ab'.repeat(8) }] }))).toBeNull();
    expect(decodeAntiEntropy(Uint8Array.of(100, 9))).toBeNull();
    const before = a.replica.reports().length;
    // The flood window is one second of the link's clock: a stopped clock puts all 2,000 messages
    // in one window however slowly a loaded machine runs them.
    const hostile = new AntiEntropyLink(a.replica, { name: 'b', origin: b }, () => undefined, { now: () => 1_000_000 });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(3), (tail, kind) => {
        const m = Uint8Array.of(100, kind, ...tail);
        expect(() => hostile.receive(m)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
    expect(a.replica.reports().length).toBeGreaterThan(before);
    // More than 200 messages in a second: the rest are dropped, once reported.
    expect(a.replica.reports().filter((x) => x.reason === 'anti-entropy-flood')).toHaveLength(1);
    // Entries sent directly are admitted on their merits, like any others.
    const forged = game.log[2]!.slice();
    forged[10]! ^= 1;
    const fresh = new AntiEntropyLink(a.replica, { name: 'c', origin: 'c' }, () => undefined);
    fresh.receive(encodeEntries([forged, r.bytes(100)]));
    expect(a.replica.reports().filter((x) => x.kind === 'entry-refused' && x.peer === 'c')).toHaveLength(2);
  });
});
