// Adversarial review of the review branch's outbox change (a once-only name given back when the
// block its number came from failed to land, outbox.ts landed/release): giving a name back is safe
// only if nothing signed under it ever leaves. Two tabs of one phone share the reservations: the
// name one tab gives back may be taken by the other at once, and then the first must never send the
// message it signed in memory, nor sign the name again; and no number may stand under two entries.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { acceptStart, type Signed, type Stamp } from '../../src/protocol';
import { payloadOf } from '../protocol/helpers';
import { blockFailsOnce, unacceptedPhone } from './outbox-helpers';

/** Player 1 of a started game that has not accepted the START yet, with one entry set two tabs publish to. */
const phone = (seed: number) => unacceptedPhone(seed, `pacto-attack-review-${seed}-${Math.random()}`);

describe('a once-only name given back after its block failed, with two tabs', () => {
  it('the other tab takes the name and signs once; the first tab never sends what it signed, nor signs again; no number is used twice', async () => {
    const p = await phone(7);
    // Tab A's store: its next reservation runs its change (the block is handed out) and then
    // fails to land once `land` is called, as a transaction that aborts at commit.
    const { flaky, failNext, changeRan, land } = blockFailsOnce(p.store);
    const a = await p.tab(flaky);
    const b = await p.tab(p.store);
    // Every message either tab's sign step produced, and what each sign step saw.
    const signedBy: { tab: string; signed: Signed }[] = [];
    const sign = (tab: string) => (stamp: Stamp) => {
      const s = acceptStart(p.me, p.g.gameId, p.start, stamp);
      signedBy.push({ tab, signed: s });
      return s;
    };
    failNext();
    const block = a.stamp();
    await changeRan;
    const sentA = a.send(sign('A'), { once: 'accept-start' });
    await new Promise((r) => setTimeout(r, 20));
    // Tab B asks while A holds the name: nothing to sign.
    expect(await b.send(sign('B'), { once: 'accept-start' })).toBeNull();
    land();
    await expect(block).rejects.toThrow();
    await expect(sentA).rejects.toThrow();
    // A gave the name back; B takes it now and signs, once.
    const sentB = await b.send(sign('B'), { once: 'accept-start' });
    expect(sentB).not.toBeNull();
    // A's duty comes back: the name is B's now, nothing is signed.
    const before = signedBy.length;
    expect(await a.send(sign('A'), { once: 'accept-start' })).toBeNull();
    expect(signedBy.length, 'a sign step ran without the right').toBe(before);
    expect(await b.send(sign('B'), { once: 'accept-start' })).toBeNull();
    // The entry set holds exactly one acceptance by this key: B's.
    await p.replica.flush();
    const acks = p.replica.entries().filter((e) => payloadOf(e).type === 'ack' && payloadOf(e).from === p.me.id);
    expect(acks).toHaveLength(1);
    expect(p.replica.admission.has(sentB!.id)).toBe(true);
    // A's signed copy (made while its reservation was in flight) never left.
    const fromA = signedBy.filter((s) => s.tab === 'A').map((s) => s.signed.id);
    for (const id of fromA) if (id !== sentB!.id) expect(p.replica.admission.has(id)).toBe(false);
    // The numbers both tabs hand out from now on: none twice, none the acceptance's.
    const numbers = [payloadOf(sentB!.bytes).seq as number];
    for (let i = 0; i < 40; i++) for (const t of [a, b]) numbers.push((await t.stamp()).seq);
    expect(new Set(numbers).size).toBe(numbers.length);
    p.replica.destroy();
    p.store.close();
  });
});
