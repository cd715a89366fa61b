// A game's compact entries in IndexedDB (fake-indexeddb) read back at open: without a signature
// check when they read as the ids they were stored under, checked (or kept waiting) when the START
// they were admitted under is missing from the store; no record is deleted for it
// (src/protocol/admission.ts restore; tests/protocol/restore-trust.test.ts has the cases).
import { describe, expect, it } from 'vitest';
import { GameReplica } from '../../src/net';
import { Admission, compactEntry, openMessage, startGame, startKeys } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { entryStorage } from '../../src/store';
import { countingVerifier } from '../native-ed25519';
import { escrowOf, identity, payloadOf, playPhase, randomPhaseOrders, rng, startedGame, T0, view } from '../protocol/helpers';
import { newProfile } from './helpers';

describe('compact entries restored from the store', () => {
  it('are not checked at open with their START stored; with it lost, none is held under an author nobody signed for, and none leaves the store', async () => {
    const g = startedGame(83);
    playPhase(g, randomPhaseOrders(view(g), rng(83).int), T0 + 100);
    const startA = g.log.find((b) => payloadOf(b).type === 'start')!;
    const keys = startKeys(payloadOf(startA) as never);
    // A second START of the creator with a fresh key in player 3's place: later places name other keys.
    const gone = g.phones[3]!.me.id;
    const fresh = identity(94);
    const roster = Object.fromEntries(g.phones.map((ph) => [ph.power, ph.me.id === gone ? fresh.id : ph.me.id])) as Record<Power, string>;
    const late = startGame(g.phones[0]!.me, g.gameId, roster, escrowOf([...g.phones.map((p) => p.me), fresh]), { seq: 40, time: T0 + 500 });
    const truth = new Set([...g.log, late.bytes].map((b) => openMessage(b)).flatMap((o) => (o.ok ? [o.message.id] : [])));
    const all = new Admission(g.gameId);
    all.restore(g.log);
    all.offer(late.bytes);
    const records = all.ids().map((id) => ({ id, bytes: id === g.startId ? startA : compactEntry(all.bytesOf(id)!, keys) }));

    const profile = newProfile('pacto-restore-trust');
    let store = await profile.open();
    await store.putEntries(g.gameId, records, []);
    let verifier = countingVerifier();
    let replica = await GameReplica.open({ gameId: g.gameId, verifier, storage: entryStorage(store, g.gameId) });
    expect(replica.admission.ids()).toEqual(all.ids());
    expect(verifier.calls, 'signatures checked at open').toBe(0);
    replica.destroy();

    // The START's record is lost.
    await store.putEntries(g.gameId, [], [g.startId]);
    store.close();
    store = await profile.open();
    verifier = countingVerifier();
    replica = await GameReplica.open({ gameId: g.gameId, verifier, storage: entryStorage(store, g.gameId) });
    expect(replica.admission.ids().filter((id) => !truth.has(id))).toEqual([]);
    await replica.flush();
    const kept = (await store.listEntries(g.gameId)).map((r) => r.id).sort();
    expect(kept).toEqual(all.ids().filter((id) => id !== g.startId));
    // A peer gives the START back: every entry is held again, under the ids it was signed as.
    replica.receiveEntries([startA], { name: 'peer', origin: 'peer' });
    expect(replica.admission.ids()).toEqual(all.ids());
    await replica.flush();
    expect((await store.listEntries(g.gameId)).map((r) => r.id).sort()).toEqual(all.ids());
    replica.destroy();
    store.close();
  });
});
