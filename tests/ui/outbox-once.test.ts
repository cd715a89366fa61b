// The once-only right of a message the protocol allows once (src/ui/game/outbox.ts send): taken
// with the signed bytes once the sign step returned, in the reservations' database two tabs
// share; a sign step that throws, or a number whose block failed to land, takes nothing.
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
  it('a message whose number came from a block that failed to land takes no right: the next attempt signs', async () => {
    const p = await phone(99);
    // The store, but the next reservation reads, runs its change (the block is handed out) and
    // then fails to land once `land` is called, as a transaction that aborts at commit.
    const { flaky, failNext, changeRan, land } = blockFailsOnce(p.store);
    const outbox = await p.tab(flaky);
    failNext();
    const first = outbox.stamp();
    await changeRan;
    // The START acceptance takes its number from that block: it waits for it, and fails with it.
    const accept = outbox.send(p.accept, { once: 'accept-start' });
    await new Promise((r) => setTimeout(r, 20));
    land();
    await expect(first).rejects.toThrow('the block did not land');
    await expect(accept).rejects.toThrow('the block did not land');
    // Nothing signed left the phone and the name was never written: the next attempt signs.
    const sent = await outbox.send(p.accept, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    p.replica.destroy();
    p.store.close();
  });
});

describe('the once-only right and a sign step that throws', () => {
  it('a sign step that throws takes no right: the next attempt signs, and then the right is used up', async () => {
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

  it('another tab asking while the sign step runs signs and takes the name; the throwing tab takes nothing; nothing else leaves', async () => {
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
    // Nothing is reserved while A's sign step runs (the name is written with the signed bytes).
    const sent = await tabB.send(bSign, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    expect(bSigned).toBe(1);
    fail();
    await expect(a).rejects.toThrow('sign failed');
    expect(await tabB.send(bSign, { once: 'accept-start' })).toBeNull();
    expect(bSigned, 'a tab signed again a name it holds').toBe(1);
    // Tab A has not seen B's write: it may sign in memory, but the write finds the name and nothing leaves.
    let aSigned: Signed | null = null;
    expect(await tabA.send((stamp) => (aSigned = p.accept(stamp)), { once: 'accept-start' })).toBeNull();
    if (aSigned !== null) expect(p.replica.admission.has((aSigned as Signed).id)).toBe(false);
    p.replica.destroy();
    p.store.close();
  });
});
