// Issue 31, item 4: a creator with sybil keys signs STARTs (src/protocol/README.md "Admission, and
// Yjs as the carrier": STARTs held; "The compact wire form"; "Determinism and speed").
// A fan-out: every sybil a held START names accepts two more STARTs, each naming fresh sybils;
//    each acceptance used to keep one more START over the quota, so held STARTs grew
//    geometrically and every compact entry was tried against every key at its place. Counted
//    here: STARTs held, signature checks per honest entry (never wall-clock time; bench/ has that).
import { describe, expect, it } from 'vitest';
import {
  acceptStart,
  Admission,
  cachedVerifier,
  checkSignature,
  clearMemos,
  compactEntry,
  reduceLog,
  startGame,
  startKeys,
  type Identity,
  type Signed,
  type Verifier,
} from '../../src/protocol';
import { compactStartedGame, escrowOf, identity, payloadOf, rosterOf, shuffled, T0, type Game } from './helpers';

/** A verifier as phones use (remembers answers), counting the signature checks it really runs. */
function counting(): Verifier & { n: () => number; reset: () => void } {
  let n = 0;
  const v = cachedVerifier((payload, signature, key) => {
    n++;
    return checkSignature(payload, signature, key);
  });
  return Object.assign(v, { n: () => n, reset: () => void (n = 0) });
}

/**
 * The sybil fan-out of `g`'s creator, after play began: a root START naming `width` fresh keys;
 * each key a START names accepts two STARTs (the most its quota keeps), each naming it and `width`
 * fresh keys; `depth` levels. Keys of the last level accept nothing, so they come from a small pool.
 */
function fanOut(g: Game, depth: number, width: number, compact = true): { entries: Uint8Array[]; starts: number } {
  const creator = g.phones[0]!.me;
  let next = 4000;
  const pool = Array.from({ length: width }, () => identity(next++));
  let seq = 1000;
  const entries: Uint8Array[] = [];
  let starts = 0;
  const make = (members: Identity[]): Signed => {
    starts++;
    const s = startGame(creator, g.gameId, rosterOf([creator, ...members]), escrowOf([creator, ...members]), { seq: seq++, time: T0 + 500 });
    entries.push(s.bytes);
    return s;
  };
  const fresh = (level: number) => (level === depth ? pool : Array.from({ length: width }, () => identity(next++)));
  let level: { start: Signed; keys: Identity[] }[] = [];
  const rootKeys = fresh(0);
  level.push({ start: make(rootKeys), keys: rootKeys });
  for (let d = 1; d <= depth; d++) {
    const below: typeof level = [];
    for (const { keys } of level) {
      for (const k of keys) {
        for (let j = 0; j < 2; j++) {
          const more = fresh(d);
          const child = make([k, ...more]);
          const places = startKeys(payloadOf(child.bytes) as never);
          const ack = acceptStart(k, g.gameId, child, { seq: j, time: T0 + 501 }).bytes;
          entries.push(compact ? compactEntry(ack, places) : ack);
          below.push({ start: child, keys: more });
        }
      }
    }
    level = below;
  }
  return { entries, starts };
}

const heldStarts = (a: Admission) => a.wireContext().keyLists.length;

describe('issue 31 (4): a creator’s sybil fan-out of STARTs costs every phone a bounded amount', () => {
  const { g, lobby, phase } = compactStartedGame(311);
  const member = g.phones[2]!.me.id;

  /** Checks to admit the honest phase on a phone that holds `lobby` and `extra` (a spectator, or a member with its key pinned). */
  function phaseCost(extra: readonly Uint8Array[], pinned?: string): { perEntry: number; starts: number; admitted: number } {
    const v = counting();
    const a = new Admission(g.gameId, { verifier: v, ...(pinned === undefined ? {} : { pinned: [pinned] }) });
    for (const b of lobby) a.offer(b);
    // Twice, as anti-entropy offers again what a phone lacks: a START refused before the acceptance that keeps it came.
    for (const b of [...extra, ...extra]) a.offer(b);
    v.reset();
    let admitted = 0;
    for (const b of phase) if (a.offer(b).kind === 'admitted') admitted++;
    return { perEntry: v.n() / phase.length, starts: heldStarts(a), admitted };
  }

  const baseline = phaseCost([]);
  it('without sybils: one check per honest entry, every entry admitted', () => {
    expect(baseline.perEntry).toBe(1);
    expect(baseline.admitted).toBe(phase.length);
  });

  for (const [depth, width] of [
    [2, 5],
    [3, 3],
  ] as const) {
    it(`depth ${depth} (${width} keys a START): STARTs held stay bounded, a phase of honest entries costs within 2× on a spectator and a member`, () => {
      const attack = fanOut(g, depth, width);
      for (const pinned of [undefined, member]) {
        const cost = phaseCost(attack.entries, pinned);
        console.log(
          `sybil-starts: depth ${depth}, ${attack.starts} STARTs signed, ${attack.entries.length} entries; ${pinned === undefined ? 'spectator' : 'member'} holds ${cost.starts} STARTs, ${cost.perEntry.toFixed(2)} checks per honest entry (baseline ${baseline.perEntry})`,
        );
        expect(cost.admitted).toBe(phase.length);
        // The two lowest STARTs, and two more for each key they name (the creator's and a pinned key included).
        expect(cost.starts).toBeLessThanOrEqual(2 + 2 * (1 + 1 + 7 + width + 1));
        expect(cost.perEntry).toBeLessThanOrEqual(2 * baseline.perEntry);
      }
    });
  }

  it('the STARTs held are a function of what was offered (each offered twice, as anti-entropy does), not of the order', () => {
    // Acceptances in full form: a compact one is read only once a START it can be read with is held
    // (it waits for one), which another offer brings; full, each is read on its first offer.
    const attack = fanOut(g, 2, 4, false);
    const ids = (order: readonly Uint8Array[]) => {
      const a = new Admission(g.gameId);
      for (const b of [...order, ...order]) a.offer(b);
      return { ids: a.ids(), starts: heldStarts(a) };
    };
    const forward = ids([...lobby, ...attack.entries, ...phase]);
    expect(ids(shuffled([...lobby, ...attack.entries, ...phase], 5))).toEqual(forward);
    expect(ids([...lobby, ...[...attack.entries].reverse(), ...phase])).toEqual(forward);
    expect(forward.starts).toBeGreaterThan(2);
  });

  it('a cold reduce of what a spectator admitted checks each entry about once, and a second reduce none again', () => {
    const attack = fanOut(g, 2, 5);
    const a = new Admission(g.gameId);
    for (const b of [...lobby, ...attack.entries, ...attack.entries, ...phase]) a.offer(b);
    clearMemos();
    const v = counting();
    const entries = a.entries();
    const cold = reduceLog(g.gameId, entries, { verifier: v });
    console.log(`sybil-starts: cold reduce of ${entries.length} admitted entries: ${v.n()} signature checks`);
    expect(cold.status).toBe('playing');
    expect(v.n()).toBeLessThanOrEqual(2 * entries.length);
    clearMemos();
    const before = v.n();
    expect(reduceLog(g.gameId, entries, { verifier: v }).stateHash).toBe(cold.stateHash);
    expect(v.n() - before).toBe(0);
  });
});
