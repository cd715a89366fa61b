// The early FINAL in the app (README "The early FINAL"): a player who marks its orders final has
// its FINALs signed at once; two tabs marking at the same moment give one FINAL per power; a
// re-seal after it is refused with a clear error and changes nothing; the last sealer's FINAL
// names its last seal.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { readLog } from '../../src/net';
import { openLog } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { openPhone, settle, startedOnThree, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;

/** Ana (France), Bea (Germany) and Carl (Russia) seated and started. */
const started = () => startedOnThree(clock, now);

/** Connects a phone opened later to the others, as wire does (every update through the receiver's gate). */
function connect(late: Phone, others: readonly Phone[]): void {
  const WIRE = { name: 'wire', origin: 'wire' };
  late.doc.on('update', (u: Uint8Array, origin: unknown) => {
    if (origin !== 'wire') for (const o of others) o.replica.receive(u, WIRE);
  });
  for (const o of others) {
    o.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin !== 'wire') late.replica.receive(u, WIRE);
    });
    late.replica.receive(Y.encodeStateAsUpdate(o.doc), WIRE);
    o.replica.receive(Y.encodeStateAsUpdate(late.doc), WIRE);
  }
}

/** The FINALs in a phone's doc, as (phase, power, author). */
/** The distinct FINAL entries of the phone's doc (one entry may be carried twice: a second tab
 *  sends the bytes the first kept with the name, outbox.ts send). */
function finals(p: Phone): { power: string; from: string; commit: string }[] {
  const seen = new Set<string>();
  return openLog(p.runner.gameId, readLog(p.doc)).flatMap((m) =>
    m.ok && m.message.payload.type === 'final' && !seen.has(m.message.id) && seen.add(m.message.id)
      ? [{ power: m.message.payload.power, from: m.message.payload.from, commit: m.message.payload.commit }]
      : [],
  );
}

const sealMine = async (p: Phone) => {
  for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
};

describe('marking orders final (the early FINAL)', () => {
  it('a player who marks final has its FINALs signed at once, before the others seal; the last seal then brings the result', async () => {
    const { phones } = await started();
    const [a, b, c] = phones;
    await sealMine(b);
    await settle(phones);
    expect(finals(a)).toEqual([]);
    await b.runner.markFinal(true);
    await settle(phones);
    const bea = b.runner.current.me.powers;
    expect(
      finals(a)
        .map((f) => f.power)
        .sort(),
    ).toEqual([...bea].sort());
    expect(finals(a).every((f) => f.from === b.device.identity.id)).toBe(true);
    expect(a.runner.view.current!.ballot.stage).toBe('orders');
    expect(b.runner.current.ready).toBe(true);
    await sealMine(a);
    await sealMine(c);
    await settle(phones);
    expect(a.runner.view.phases).toHaveLength(1);
    expect(a.runner.view.misconduct).toEqual([]);
  });

  it('a mark made before sealing waits for the seals, and is taken back while no FINAL is signed', async () => {
    const { phones } = await started();
    const [a, b] = phones;
    const [first, ...rest] = b.runner.current.me.powers as [Power, ...Power[]];
    await b.runner.markFinal(true);
    await b.runner.seal(first, []);
    await settle(phones);
    // Bea holds more powers than the one sealed: nothing is final yet, and the mark can be taken back.
    expect(rest.length).toBeGreaterThan(0);
    expect(finals(a)).toEqual([]);
    await b.runner.markFinal(false);
    expect(b.runner.current.ready).toBe(false);
    for (const p of rest) await b.runner.seal(p, []);
    await settle(phones);
    expect(finals(a)).toEqual([]);
  });

  it('after its FINAL a re-seal is refused with a clear error and changes nothing; the mark cannot be taken back', async () => {
    const { phones } = await started();
    const [a, b] = phones;
    await sealMine(b);
    await b.runner.markFinal(true);
    await settle(phones);
    const power = b.runner.current.me.powers[0]!;
    const entries = readLog(b.doc).length;
    const sealed = b.runner.current.sealed[power];
    await expect(b.runner.seal(power, [{ kind: 'hold', power, unit: b.runner.view.current!.position.units.find((u) => u.power === power)! }])).rejects.toThrow(
      /orders are final/,
    );
    await expect(b.runner.markFinal(false)).rejects.toThrow(/already final/);
    await settle(phones);
    expect(readLog(b.doc).length).toBe(entries);
    expect(b.runner.current.sealed[power]).toEqual(sealed);
    expect(b.runner.current.ready).toBe(true);
    expect(finals(a).filter((f) => f.power === power)).toHaveLength(1);
  });

  it('two tabs of one player that do not see each other both mark final: one FINAL per power (the store reserves it), no equivocation', async () => {
    const { gameId, phones } = await started();
    const [a, b, c] = phones;
    await sealMine(b);
    await settle(phones);
    // A second tab of Bea's phone, opened from its store and not connected to anything: it cannot
    // see the first tab's FINAL, only the reservations both read in the store.
    const b2 = await openPhone(b.device, gameId, now);
    await settle([...phones, b2]);
    expect(Object.keys(b2.runner.view.current!.ballot.heads).sort()).toEqual(Object.keys(b.runner.view.current!.ballot.heads).sort());
    await Promise.all([b.runner.markFinal(true), b2.runner.markFinal(true)]);
    await settle([...phones, b2]);
    connect(b2, phones);
    await settle([...phones, b2]);
    const bea = b.runner.current.me.powers;
    expect(
      finals(a)
        .map((f) => f.power)
        .sort(),
    ).toEqual([...bea].sort());
    await sealMine(a);
    await sealMine(c);
    await settle([...phones, b2]);
    expect(a.runner.view.phases).toHaveLength(1);
    expect(a.runner.view.misconduct).toEqual([]);
  });

  it("the last sealer's FINAL names its last seal, once the seal and what it set off are done", async () => {
    const { phones } = await started();
    const [a, b, c] = phones;
    await sealMine(a);
    await sealMine(b);
    await settle(phones);
    expect(finals(c)).toEqual([]);
    const powers = c.runner.current.me.powers;
    for (const p of powers.slice(0, -1)) await c.runner.seal(p, []);
    const last = powers.at(-1)!;
    await c.runner.seal(last, []);
    const head = c.runner.view.current!.ballot.heads[last];
    expect(head).toBeDefined();
    await c.runner.idle();
    const mine = finals(c).filter((f) => f.from === c.device.identity.id && f.power === last);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.commit).toBe(head);
    await settle(phones);
    expect(a.runner.view.phases).toHaveLength(1);
    expect(a.runner.view.misconduct).toEqual([]);
  });
});
