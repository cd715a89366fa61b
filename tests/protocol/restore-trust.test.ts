// What a phone trusts when it restores its store (admission.ts restore; src/protocol/README.md "The
// compact wire form"): a compact entry names its author by a place in a START, so the same stored
// bytes read with another START stand for another author's message. A store that lost (or holds a
// tampered copy of) the START its entries were admitted under must not restore them as trusted
// under an author nobody signed for, and must lose none of them. Each test passes when that holds.
import { describe, expect, it } from 'vitest';
import { Admission, compactEntry, openMessage, parseEntry, reduceLog, startGame, startKeys, type Identity, type Signed } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { escrowOf, identity, payloadOf, playPhase, randomPhaseOrders, rng, startedGame, T0, view, type Game } from './helpers';

/** A standard game played through spring 1901, and its START's key list. */
function played(seed: number): Game & { keys: string[] } {
  const g = startedGame(seed);
  playPhase(g, randomPhaseOrders(view(g), rng(seed).int), T0 + 100);
  return { ...g, keys: startKeys(payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!) as never) };
}

/** Another START of `g`'s creator (for `gameId`) putting `fresh` in the place of `gone`: the places after it name other keys. */
function otherStart(g: Game, gameId: string, gone: Identity, fresh: Identity, seq: number): Signed {
  const roster = Object.fromEntries(g.phones.map((ph) => [ph.power, ph.me.id === gone.id ? fresh.id : ph.me.id])) as Record<Power, string>;
  return startGame(g.phones[0]!.me, gameId, roster, escrowOf([...g.phones.map((p) => p.me), fresh]), { seq, time: T0 + 500 });
}

/** The ids every honest phone can hold: those of the signed entries, whatever form carries them. */
function signedIds(log: readonly Uint8Array[]): Set<string> {
  return new Set(log.map((b) => openMessage(b)).flatMap((o) => (o.ok ? [o.message.id] : [])));
}

describe('restoring a store that lacks the START its compact entries were admitted under', () => {
  const g = played(81);
  const startA = g.log.find((b) => payloadOf(b).type === 'start')!;
  // A second START of the creator (admitted: a creator may sign two), with another key at a place.
  const late = otherStart(g, g.gameId, g.phones[3]!.me, identity(91), 40);
  const truth = signedIds([...g.log, late.bytes]);
  // What the phone stored: every admitted entry under the id it was admitted under.
  const before = new Admission(g.gameId);
  before.restore(g.log);
  before.offer(late.bytes);
  const stored = before.ids().map((id) => ({ id, bytes: id === g.startId ? startA : compactEntry(before.bytesOf(id)!, g.keys) }));
  const storedIds = stored.map((r) => r.id);
  expect(storedIds).toContain(late.id);

  /** Restores `records`, then checks: no entry held under an id nobody signed, nothing vouched that the check refuses, no stored record deleted; given START A again (a peer), every stored entry is back. */
  function check(records: readonly (Uint8Array | { id: string; bytes: Uint8Array })[], peersStart: Uint8Array = startA) {
    const again = new Admission(g.gameId);
    again.restore(records);
    const forged = again.ids().filter((id) => !truth.has(id));
    expect(forged, 'held under an author nobody signed for').toEqual([]);
    const trusting = reduceLog(g.gameId, again.entries(), { verifier: again.verifier });
    const checking = reduceLog(g.gameId, again.entries());
    expect(trusting.ignored).toEqual(checking.ignored);
    expect(trusting.stateHash).toBe(checking.stateHash);
    const { remove } = again.takeChanges();
    expect(
      remove.filter((id) => storedIds.includes(id)),
      'stored records deleted',
    ).toEqual([]);
    // No data lost: the START comes back from a peer, and every stored entry is held again.
    again.offer(peersStart);
    expect(again.ids()).toEqual(before.ids());
    expect(reduceLog(g.gameId, again.entries(), { verifier: again.verifier }).stateHash).toBe(reduceLog(g.gameId, before.entries()).stateHash);
  }

  it('the START record lost, another START of the creator kept (records with their ids, as the store gives them)', () => {
    check(stored.filter((r) => r.id !== g.startId));
  });

  it('the START record lost, another START of the creator kept (bare bytes: no id to compare with)', () => {
    check(stored.filter((r) => r.id !== g.startId).map((r) => r.bytes));
  });

  it('the START record tampered (a byte of its escrow keys changed, under its id)', () => {
    const tampered = startA.slice();
    tampered[tampered.length - 1]! ^= 1;
    expect(parseEntry(tampered)).toMatchObject({ ok: true });
    check(stored.map((r) => (r.id === g.startId ? { id: r.id, bytes: tampered } : r)));
  });

  it("another game's START of the same creator stored with this game's entries (its own lost)", () => {
    const other = played(82);
    expect(other.phones[0]!.me.id).toBe(g.phones[0]!.me.id);
    const foreign = otherStart(other, other.gameId, other.phones[3]!.me, identity(93), 41);
    const records = [...stored.filter((r) => r.id !== g.startId && r.id !== late.id), { id: foreign.id, bytes: foreign.bytes }];
    const again = new Admission(g.gameId);
    again.restore(records);
    expect(again.ids().filter((id) => !truth.has(id))).toEqual([]);
    expect(again.takeChanges().remove.filter((id) => storedIds.includes(id))).toEqual([]);
    again.offer(startA);
    expect(again.ids()).toEqual(before.ids().filter((id) => id !== late.id));
  });
});
