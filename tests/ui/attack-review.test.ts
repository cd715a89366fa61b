// Adversarial review of the outbox's once-only names with a block of numbers that fails to land
// (outbox.ts send/keepOnce): a name is written only with the bytes signed under it, once the
// number's block is on disk. Two tabs of one phone share the reservations: while one tab's block
// is in flight the other may take the name, and then the first must never send what it signed in
// memory; and no number may stand under two entries.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { acceptStart, type Signed, type Stamp } from '../../src/protocol';
import { payloadOf } from '../protocol/helpers';
import { blockFailsOnce, unacceptedPhone } from './outbox-helpers';

/** Player 1 of a started game that has not accepted the START yet, with one entry set two tabs publish to. */
const phone = (seed: number) => unacceptedPhone(seed, `pacto-attack-review-${seed}-${Math.random()}`);

describe('a once-only name while a block fails, with two tabs', () => {
  it('the other tab takes the name and signs once; the first tab never sends what it signed; no number is used twice', async () => {
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
    // Tab B asks while A's number waits for its block: A holds no name, B signs and takes it.
    const sentB = await b.send(sign('B'), { once: 'accept-start' });
    expect(sentB).not.toBeNull();
    land();
    await expect(block).rejects.toThrow();
    await expect(sentA).rejects.toThrow();
    // A's duty comes back: the name is B's, nothing of A's leaves (it may sign in memory first).
    expect(await a.send(sign('A'), { once: 'accept-start' })).toBeNull();
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
