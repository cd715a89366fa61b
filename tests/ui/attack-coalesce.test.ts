// Adversarial review of the reduction and apply-path speed-ups (issue 17: reductions coalesced per
// burst of entries, memos in the reducer, admission and escrow checks, the replica's apply path):
// a phone that received a game's entries one at a time, one that received them all in one burst,
// one that received the Yjs update of another phone's doc, and one that received them in shuffled
// bursts must all hold the very view a reduction from scratch (every memo cleared) gives, hostile
// entries included (a reused sequence number, an ACK with a wrong hash, a second ACK).
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { acknowledge, clearMemos, reduceLog, type GameView } from '../../src/protocol';
import { acceptInvite } from '../../src/ui/game/create';
import { openPhone, settle, startedOnThree, device, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const WIRE = { name: 'wire', origin: 'wire' };

/** What two phones must agree on: the game state (the misconduct report included), not the ignored list's order. */
function stateOf(v: GameView): unknown {
  const { ignored: _i, ...rest } = v;
  return JSON.parse(JSON.stringify(rest, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))) as unknown;
}

/** A seeded shuffle (xorshift), so a failure can be replayed. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A phone of a device that took the invite and plays nothing (a spectator: reduces, signs no duty). */
async function spectator(gameId: string, password: string): Promise<Phone> {
  const d = await device(`s${Math.random()}`, clock);
  await acceptInvite(d, { gameId, password, signaling: [] }, clock);
  return openPhone(d, gameId, now);
}

describe('one at a time, in one burst, or in shuffled bursts: the same view', () => {
  it('two phases played (the second half way), with hostile entries: every spectator holds the view a cold reduction gives', async () => {
    const { gameId, phones } = await startedOnThree(clock, now);
    const [a, b, c] = phones;
    for (const p of phones) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    expect(a.runner.view.phases).toHaveLength(1);
    const resolved = a.runner.view.phases[0]!;
    // The second phase: Ana and Bea seal and mark final; Carl has not sealed yet.
    await a.runner.markFinal(true);
    await b.runner.markFinal(true);
    for (const p of [a, b]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    // Carl's phone misbehaves: an ACK of the resolved phase with a wrong hash, under a number he used.
    const carl = c.device.identity;
    const used = c.runner.view.nextSeq - 1;
    const hostile = [
      acknowledge(carl, gameId, resolved.key, '00'.repeat(16), { seq: used, time: clock }).bytes,
      acknowledge(carl, gameId, resolved.key, resolved.stateHash, { seq: used + 40, time: clock }).bytes,
    ];
    const entries = [...a.replica.entries(), ...hostile];

    const password = (await a.device.store.getGame(gameId))!.password as string;
    const [one, burst, doc, bursts] = [
      await spectator(gameId, password),
      await spectator(gameId, password),
      await spectator(gameId, password),
      await spectator(gameId, password),
    ];
    // One at a time, each reduced before the next arrives on every other entry.
    let i = 0;
    for (const e of shuffled(entries, 7)) {
      one.replica.receiveEntries([e], WIRE);
      if (i++ % 2 === 0) await one.runner.idle();
    }
    burst.replica.receiveEntries(entries, WIRE);
    doc.replica.receive(Y.encodeStateAsUpdate(a.doc), WIRE);
    doc.replica.receiveEntries(hostile, WIRE);
    const order = shuffled(entries, 11);
    for (let at = 0; at < order.length;) {
      const n = 1 + (at % 5);
      bursts.replica.receiveEntries(order.slice(at, at + n), WIRE);
      at += n;
      if (at % 3 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    const watchers = [one, burst, doc, bursts];
    await settle(watchers);

    clearMemos();
    const cold = stateOf(reduceLog(gameId, entries, {}));
    for (const w of watchers) {
      expect(w.replica.entries().length).toBe(entries.length);
      expect(stateOf(w.runner.view)).toEqual(cold);
    }
    const report = (w: Phone) => w.runner.view.misconduct.map((m) => m.kind).sort();
    expect(report(one).length).toBeGreaterThan(0);
    for (const w of watchers) expect(report(w)).toEqual(report(one));
    // Carl seals: the phase resolves on every player's phone and every spectator's, alike.
    for (const power of c.runner.current.me.powers) await c.runner.seal(power, []);
    await settle(phones);
    const all = a.replica.entries();
    for (const w of watchers) w.replica.receiveEntries(all, WIRE);
    await settle(watchers);
    expect(a.runner.view.phases).toHaveLength(2);
    for (const w of [...watchers, b, c]) expect(w.runner.view.phases.map((p) => p.stateHash)).toEqual(a.runner.view.phases.map((p) => p.stateHash));
  });
});
