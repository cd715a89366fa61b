// The once-only right of a message the protocol allows once (src/ui/game/outbox.ts send): reserved
// with the sequence number before signing; used up by a message signed with it, given back when
// the sign step throws (nothing signed with it left the phone), in the reservations' database two
// tabs share.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { acceptStart, type Signed, type Stamp } from '../../src/protocol';
import { blockFailsOnce, unacceptedPhone } from './outbox-helpers';

/** A started game whose player 1 has not accepted the START yet, open on player 1's phone (one tab, or two on one store). */
async function phone(seed: number) {
  const { g, me, start, store, replica, tab } = await unacceptedPhone(seed, `pacto-once-${seed}`);
  const accept = (stamp: Stamp): Signed => acceptStart(me, g.gameId, start, stamp);
  return { g, me, store, replica, tab, accept };
}

describe('the once-only right and a block of numbers whose write fails', () => {
  it('a right written while the block its number came from failed to land is given back: the next attempt signs', async () => {
    const p = await phone(99);
    // The store, but the next reservation reads, runs its change (the block is handed out) and
    // then fails to land once `land` is called, as a transaction that aborts at commit.
    const { flaky, failNext, changeRan, land } = blockFailsOnce(p.store);
    const outbox = await p.tab(flaky);
    failNext();
    const first = outbox.stamp();
    await changeRan;
    // The START acceptance takes its number from that block, its own write (the name) lands.
    const accept = outbox.send(p.accept, { once: 'accept-start' });
    await new Promise((r) => setTimeout(r, 20));
    land();
    await expect(first).rejects.toThrow('the block did not land');
    await expect(accept).rejects.toThrow('the block did not land');
    // Nothing signed with the right left the phone: it is not used up.
    const sent = await outbox.send(p.accept, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    p.replica.destroy();
    p.store.close();
  });
});

describe('the once-only right and a sign step that throws', () => {
  it('a sign step that throws gives the right back: the next attempt signs, and then the right is used up', async () => {
    const p = await phone(97);
    const outbox = await p.tab(p.store);
    await expect(
      outbox.send(
        () => {
          throw new Error('sign failed');
        },
        { once: 'accept-start' },
      ),
    ).rejects.toThrow('sign failed');
    // The names reserved, as the reservations' database holds them (read, nothing written).
    const storedOnce = async () => {
      let names: readonly string[] = [];
      await p.store.modifyReservation(p.g.gameId, (old) => ((names = old.once), null));
      return names;
    };
    expect(await storedOnce()).not.toContain('accept-start');
    const sent = await outbox.send(p.accept, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    expect(await storedOnce()).toContain('accept-start');
    let signedAgain = false;
    const again = await outbox.send(
      (stamp) => {
        signedAgain = true;
        return p.accept(stamp);
      },
      { once: 'accept-start' },
    );
    expect(again).toBeNull();
    expect(signedAgain).toBe(false);
    p.replica.destroy();
    p.store.close();
  });

  it('another tab asking while the sign step runs gets nothing to sign; after the throw it signs, once', async () => {
    const p = await phone(98);
    const tabA = await p.tab(p.store);
    const tabB = await p.tab(p.store);
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    let signing!: () => void;
    const started = new Promise<void>((resolve) => (signing = resolve));
    const a = tabA.send(
      async () => {
        signing();
        await failing;
        throw new Error('sign failed');
      },
      { once: 'accept-start' },
    );
    await started;
    let bSigned = 0;
    const bSign = (stamp: Stamp) => {
      bSigned++;
      return p.accept(stamp);
    };
    expect(await tabB.send(bSign, { once: 'accept-start' })).toBeNull();
    expect(bSigned).toBe(0);
    fail();
    await expect(a).rejects.toThrow('sign failed');
    const sent = await tabB.send(bSign, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(await tabA.send(bSign, { once: 'accept-start' })).toBeNull();
    expect(bSigned).toBe(1);
    p.replica.destroy();
    p.store.close();
  });
});
