// Adversarial review of the admission's restore (admission.ts restore, lobby.ts wireContextOf): a
// phone's store may lose records or hold records under the wrong label (a tampered or damaged
// IndexedDB). Whatever it holds, a restore must hold no entry under an id nobody signed, and must
// delete no stored record a peer could make count again (no data lost): given the missing entries
// back, the phone holds what it held before.
import { describe, expect, it } from 'vitest';
import { Admission, compactEntry, openMessage, reduceLog, startKeys } from '../../src/protocol';
import { payloadOf, playPhase, randomPhaseOrders, rng, startedGame, T0, view } from './helpers';

function setup(seed: number) {
  const g = startedGame(seed);
  playPhase(g, randomPhaseOrders(view(g), rng(seed).int), T0 + 100);
  const startBytes = g.log.find((b) => payloadOf(b).type === 'start')!;
  const createBytes = g.log.find((b) => payloadOf(b).type === 'create')!;
  const keys = startKeys(payloadOf(startBytes) as never);
  const before = new Admission(g.gameId);
  before.restore(g.log);
  // As the store keeps them: every admitted entry under its id, compact where the app writes compact.
  const stored = before.ids().map((id) => {
    const bytes = before.bytesOf(id)!;
    const t = payloadOf(bytes).type;
    return { id, bytes: t === 'create' || t === 'start' || t === 'join' ? bytes : compactEntry(bytes, keys) };
  });
  const truth = new Set(g.log.map((b) => openMessage(b)).flatMap((o) => (o.ok ? [o.message.id] : [])));
  return { g, before, stored, truth, startBytes, createBytes };
}

function restored(gameId: string, records: readonly { id: string; bytes: Uint8Array }[]) {
  const again = new Admission(gameId);
  again.restore(records);
  return again;
}

describe('restore from a damaged store: nothing forged held, nothing stored deleted, nothing lost', () => {
  it('the CREATE record lost: no stored record deleted, and with the CREATE back everything is held again', () => {
    const { g, before, stored, truth, createBytes } = setup(101);
    const createId = openMessage(createBytes).ok ? (openMessage(createBytes) as { message: { id: string } }).message.id : '';
    const again = restored(
      g.gameId,
      stored.filter((r) => r.id !== createId),
    );
    expect(again.ids().filter((id) => !truth.has(id))).toEqual([]);
    const { remove } = again.takeChanges();
    expect(remove, 'stored records deleted for a lost CREATE').toEqual([]);
    again.offer(createBytes);
    expect(again.ids()).toEqual(before.ids());
  });

  it('labels swapped between records (two full-form, two compact): held as what they are, none deleted', () => {
    const { g, before, stored, truth } = setup(102);
    const full = stored.filter((r) => payloadOf(before.bytesOf(r.id)!).type === 'join');
    const compact = stored.filter((r) => !['create', 'start', 'join'].includes(payloadOf(before.bytesOf(r.id)!).type));
    expect(full.length).toBeGreaterThan(1);
    expect(compact.length).toBeGreaterThan(1);
    const [a, b] = full;
    const [c, d] = compact;
    const swap = new Map([
      [a!.id, b!.bytes],
      [b!.id, a!.bytes],
      [c!.id, d!.bytes],
      [d!.id, c!.bytes],
    ]);
    const records = stored.map((r) => ({ id: r.id, bytes: swap.get(r.id) ?? r.bytes }));
    const again = restored(g.gameId, records);
    expect(
      again.ids().filter((id) => !truth.has(id)),
      'held under an id nobody signed',
    ).toEqual([]);
    expect(again.ids()).toEqual(before.ids());
    const { remove } = again.takeChanges();
    expect(remove.filter((id) => stored.some((r) => r.id === id))).toEqual([]);
    expect(reduceLog(g.gameId, again.entries(), { verifier: again.verifier }).stateHash).toBe(reduceLog(g.gameId, g.log).stateHash);
  });
});
