// The attacks of issue 10 on the log, each as a hostile peer would mount it, against phones that
// are GameReplicas linked as y-webrtc links them (tests/net/helpers/mesh.ts). Whatever the
// attacker sends, honest phones end with the same entries and the same game, and lose nothing.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { openPactoStore, persistDoc } from '../../src/store';
import type { PeerRef } from '../../src/net';
import { ballotDuties, finalOrders } from '../../src/protocol';
import { playPhase, randomPhaseOrders, rng, startedGame, T0, typeOf, view, type Game } from '../protocol/helpers';
import { Mesh, meshPhone, sameIds, viewHash, viewOf, type MeshPhone } from './helpers/mesh';

const ATTACKER: PeerRef = { name: 'attacker', origin: 'attacker' };

/** A game with `phases` resolved phases, as a doc whose every entry is its own update. */
function playedGame(seed: number, phases: number): { game: Game; source: Y.Doc } {
  const game = startedGame(seed);
  const r = rng(seed);
  let v = view(game);
  for (let i = 0; v.phases.length < phases; i++) v = playPhase(game, randomPhaseOrders(v, r.int), T0 + 100 * (i + 1));
  const source = new Y.Doc();
  source.clientID = 1000 + seed;
  for (const e of game.log) source.getArray<Uint8Array>('log').push([e]);
  return { game, source };
}

async function honestPhones(gameId: string, n: number, source: Y.Doc): Promise<{ phones: MeshPhone[]; mesh: Mesh }> {
  const phones: MeshPhone[] = [];
  for (let i = 0; i < n; i++) phones.push(await meshPhone(`phone-${i}`, gameId, { clientID: 10 + i }));
  for (const p of phones) p.replica.receive(Y.encodeStateAsUpdate(source), { name: 'source', origin: 'source' });
  const mesh = new Mesh();
  mesh.full(phones);
  await mesh.settle();
  return { phones, mesh };
}

/** An update that deletes items of `source` (what any Yjs peer can send). */
function deletion(source: Y.Doc, index: number, length: number): Uint8Array {
  const clone = new Y.Doc();
  Y.applyUpdate(clone, Y.encodeStateAsUpdate(source));
  clone.getArray('log').delete(index, length);
  return Y.encodeStateAsUpdate(clone, Y.encodeStateVector(source));
}

function expectAgreement(phones: readonly MeshPhone[]): void {
  const first = phones[0]!;
  for (const p of phones.slice(1)) {
    expect(sameIds(p, first)).toBe(true);
    expect(viewHash(p)).toBe(viewHash(first));
  }
}

describe('attacks on the log', () => {
  it('deleting one item changes nothing: refused, not applied, not forwarded', async () => {
    const { game, source } = playedGame(21, 3);
    const { phones, mesh } = await honestPhones(game.gameId, 3, source);
    const [a] = phones;
    const before = viewHash(a!);
    expect(viewOf(a!).phases).toHaveLength(3);
    const firstCommit = game.log.findIndex((e) => typeOf(e) === 'commit');
    const sent = a!.forwarded.length;
    const r = a!.replica.receive(deletion(source, firstCommit, 1), ATTACKER);
    expect(r).toMatchObject({ clean: false, applied: 0, reason: 'deletes' });
    expect(a!.forwarded.length).toBe(sent);
    await mesh.settle();
    for (const p of phones) expect(viewHash(p)).toBe(before);
    expect(viewOf(a!).phases).toHaveLength(3);
  });

  it('deleting everything changes nothing, and a deletion that reaches a doc by another way does not touch the entries', async () => {
    const { game, source } = playedGame(22, 3);
    const { phones, mesh } = await honestPhones(game.gameId, 3, source);
    const [a, b] = phones;
    const before = viewHash(a!);
    const all = deletion(source, 0, game.log.length);
    expect(a!.replica.receive(all, ATTACKER).applied).toBe(0);
    expect(a!.doc.getArray('log').length).toBe(game.log.length);
    // Say an older version of the app stored it: the doc loses the items, the phone does not.
    Y.applyUpdate(b!.doc, all);
    expect(b!.doc.getArray('log').length).toBe(0);
    // At once, before any carrier runs: the game is the entry set, not the doc.
    expect(b!.replica.entries()).toHaveLength(game.log.length);
    expect(viewHash(b!)).toBe(before);
    await mesh.settle();
    for (const p of phones) expect(viewHash(p)).toBe(before);
    // The carrier put every entry back into b's doc, under a fresh Yjs id.
    expect(b!.doc.getArray('log').length).toBe(game.log.length);
  });

  it('squatting a phone’s Yjs client id does not hide its commit from anyone', async () => {
    const { game, source } = playedGame(23, 0);
    const { phones, mesh } = await honestPhones(game.gameId, 3, source);
    const [france, b, c] = phones;
    // Turkey (a player) writes its own valid entry under France's client id, at the clock France
    // will use next, and sends it to b and c before France's commit.
    const squat = new Y.Doc();
    Y.applyUpdate(squat, Y.encodeStateAsUpdate(france!.doc));
    squat.clientID = france!.doc.clientID;
    const v = view(game);
    const turkish = game.byPower.turkey.commit(game.gameId, v, [], T0 + 5);
    squat.getArray<Uint8Array>('log').push([turkish.bytes]);
    const update = Y.encodeStateAsUpdate(squat, Y.encodeStateVector(france!.doc));
    b!.replica.receive(update, ATTACKER);
    c!.replica.receive(update, ATTACKER);
    // France commits (its phone publishes under its own client id: the squatted one).
    const commit = game.byPower.france.commit(game.gameId, viewOf(france!), [], T0 + 6);
    const before = france!.doc.clientID;
    await france!.replica.publish([commit.bytes]);
    expect(france!.doc.clientID).toBe(before);
    await mesh.settle();
    for (const p of phones) {
      expect(p.replica.admission.has(commit.id)).toBe(true);
      expect(p.replica.admission.has(turkish.id)).toBe(true);
      expect(viewOf(p).current!.committed).toEqual(['france', 'turkey']);
    }
    expectAgreement(phones);
    expect(b!.replica.reports().some((r) => r.kind === 'fork-by-yjs-id')).toBe(true);
  });

  it('two FINALs under one Yjs id sent to different phones: everyone ends with both, sees the equivocation, and the phase resolves', async () => {
    const { game, source } = playedGame(24, 0);
    const { phones, mesh } = await honestPhones(game.gameId, 3, source);
    const [germany, o1, o2] = phones;
    const turkey = game.byPower.turkey;
    const v0 = view(game);
    // Turkey seals two plans for everyone to see, then signs a FINAL of each under one Yjs id, to different phones.
    const c1 = turkey.commit(game.gameId, v0, [{ kind: 'hold', power: 'turkey', unit: { type: 'A', loc: 'con' } }], T0 + 5);
    const c2 = turkey.commit(game.gameId, v0, [], T0 + 5);
    await o1!.replica.publish([c1.bytes, c2.bytes]);
    await mesh.settle();
    const phase = v0.current!.key;
    const f1 = finalOrders(turkey.me, game.gameId, phase, 'turkey', c1.id, turkey.stamp(T0 + 6));
    const f2 = finalOrders(turkey.me, game.gameId, phase, 'turkey', c2.id, turkey.stamp(T0 + 6));
    const underOneId = (bytes: Uint8Array): Uint8Array => {
      const d = new Y.Doc();
      d.clientID = 4242;
      d.getArray<Uint8Array>('log').push([bytes]);
      return Y.encodeStateAsUpdate(d);
    };
    germany!.replica.receive(underOneId(f1.bytes), ATTACKER);
    o1!.replica.receive(underOneId(f2.bytes), ATTACKER);
    o2!.replica.receive(underOneId(f2.bytes), ATTACKER);
    await mesh.settle();
    // Every honest power seals, then each phone takes the automatic steps from what it sees; Turkey locks and reveals too.
    const phoneOf = (p: string): MeshPhone => (p === 'germany' ? germany! : ['austria', 'england', 'france', 'turkey'].includes(p) ? o1! : o2!);
    const honest = (['austria', 'england', 'france', 'germany', 'italy', 'russia'] as const).map((p) => game.byPower[p]);
    for (const h of honest) await phoneOf(h.power).replica.publish([h.commit(game.gameId, viewOf(phoneOf(h.power)), [], T0 + 10).bytes]);
    await mesh.settle();
    for (let round = 0; round < 4; round++) {
      for (const h of [...honest, turkey]) {
        const phone = phoneOf(h.power);
        const v = viewOf(phone);
        const log = [...phone.replica.admission.entries()];
        const due = ballotDuties(v, h.me.id);
        const step =
          due.finals.length > 0
            ? h.final(game.gameId, v, T0 + 20)
            : due.lock
              ? h.lock(game.gameId, v, log, T0 + 20)
              : due.reveal
                ? h.reveal(game.gameId, v, log, T0 + 20)
                : null;
        if (step !== null) await phone.replica.publish([step.bytes]);
      }
      await mesh.settle();
    }
    expectAgreement(phones);
    for (const p of phones) {
      const seen = viewOf(p);
      expect(p.replica.admission.has(f1.id) && p.replica.admission.has(f2.id)).toBe(true);
      expect(seen.phases).toHaveLength(1);
      expect(seen.misconduct.some((m) => m.kind === 'equivocation' && m.author === turkey.me.id)).toBe(true);
    }
    expect(germany!.replica.reports().some((r) => r.kind === 'fork-by-yjs-id' && r.authors?.includes(turkey.me.id))).toBe(true);
  });

  it('two commits under one Yjs id at the two ends of a chain of phones: the middle phone heals both ends (carrier and anti-entropy)', async () => {
    const { game, source } = playedGame(27, 0);
    const ends: MeshPhone[] = [];
    for (let i = 0; i < 3; i++) ends.push(await meshPhone(`chain-${i}`, game.gameId, { clientID: 30 + i }));
    for (const p of ends) p.replica.receive(Y.encodeStateAsUpdate(source), { name: 'source', origin: 'source' });
    const [left, middle, right] = ends;
    // left - middle - right: no link between the ends, so Yjs alone, whose state vectors agree at
    // the forked id, would never move either commit past the middle.
    const mesh = new Mesh();
    mesh.link(left!, middle!);
    mesh.link(middle!, right!);
    await mesh.settle();
    const turkey = game.byPower.turkey;
    const v0 = view(game);
    const c1 = turkey.commit(game.gameId, v0, [{ kind: 'hold', power: 'turkey', unit: { type: 'A', loc: 'con' } }], T0 + 5);
    const c2 = turkey.commit(game.gameId, v0, [], T0 + 5);
    const underOneId = (bytes: Uint8Array): Uint8Array => {
      const d = new Y.Doc();
      d.clientID = 4343;
      d.getArray<Uint8Array>('log').push([bytes]);
      return Y.encodeStateAsUpdate(d);
    };
    left!.replica.receive(underOneId(c1.bytes), ATTACKER);
    right!.replica.receive(underOneId(c2.bytes), ATTACKER);
    await mesh.settle();
    expectAgreement(ends);
    for (const p of ends) {
      expect(p.replica.admission.has(c1.id) && p.replica.admission.has(c2.id)).toBe(true);
      // Two commits of one slot are a re-seal in protocol v2, not misconduct: every end counts the later one.
      expect(viewOf(p).current!.ballot.heads.turkey).toBe(c2.id);
    }
    expect(middle!.replica.reports().some((r) => r.kind === 'fork-by-yjs-id' && r.authors?.includes(turkey.me.id))).toBe(true);
  });

  it('a 12 MiB update is refused unread: not applied, not stored, not forwarded', async () => {
    const { game, source } = playedGame(25, 0);
    const { phones } = await honestPhones(game.gameId, 2, source);
    const [a] = phones;
    const store = await openPactoStore('attack-12mib', new IDBFactory());
    const persisted = persistDoc(store, game.gameId, a!.doc, { load: (u, origin) => a!.replica.loadStored(u, origin) });
    await persisted.ready;
    await persisted.flush();
    const stored = await store.countUpdates(game.gameId);
    const huge = new Y.Doc();
    huge.getArray<Uint8Array>('log').push([new Uint8Array(12 * 1024 * 1024).fill(7)]);
    const update = Y.encodeStateAsUpdate(huge);
    expect(update.length).toBeGreaterThan(12 * 1024 * 1024);
    const sent = a!.forwarded.length;
    expect(a!.replica.receive(update, ATTACKER)).toMatchObject({ applied: 0, reason: 'update-too-large' });
    await persisted.flush();
    expect(await store.countUpdates(game.gameId)).toBe(stored);
    expect(a!.forwarded.length).toBe(sent);
    expect(a!.doc.store.clients.has(huge.clientID)).toBe(false);
    await persisted.destroy();
    store.close();
  });

  it('400 mutated copies of an honest update: nothing throws, no garbled copy takes an honest entry’s place', async () => {
    const { game } = playedGame(26, 1);
    const honestDoc = new Y.Doc();
    honestDoc.clientID = 77;
    for (const e of game.log) honestDoc.getArray<Uint8Array>('log').push([e]);
    const honest = Y.encodeStateAsUpdate(honestDoc);
    const r = rng(2626);
    for (let i = 0; i < 400; i++) {
      const m = honest.slice();
      const flips = 1 + r.int(4);
      for (let f = 0; f < flips; f++) m[r.int(m.length)] = r.int(256);
      const p = await meshPhone(`victim-${i}`, game.gameId);
      expect(() => p.replica.receive(m, ATTACKER)).not.toThrow();
      p.replica.receive(honest, { name: 'honest', origin: 'honest' });
      expect(p.replica.admission.size).toBe(game.log.length);
      p.replica.carryNow(true);
      const carried = new Set(
        p.doc
          .getArray<Uint8Array>('log')
          .toArray()
          .map((b) => b.join()),
      );
      for (const e of game.log) expect(carried.has(e.join())).toBe(true);
      p.replica.destroy();
    }
    // Curve arithmetic for 400 updates: 10 s on a quiet machine, 27-30 s beside another suite.
    // A hang guard only (speed lives in the bench).
  }, 120_000);
});
