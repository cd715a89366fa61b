// A once-only name claimed ahead (src/ui/game/outbox.ts SendOptions.claim: the REVEAL with the
// LOCK's reservation). The cheats and accidents it must not allow: a second tab of the device, or
// the same phone reloaded after a crash, signing the claimed message too (two REVEALs are
// equivocation, which voids the player's orders); a claim kept by a hidden page stopping every
// other context from ever signing it. And what it is for: the claiming page signs it with no write
// of its own.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { acceptStart, type Signed, type Stamp } from '../../src/protocol';
import type { PactoStore } from '../../src/store';
import { unacceptedPhone } from './outbox-helpers';

const CLAIM = 'reveal|claimed-phase';

async function phone(seed: number) {
  const p = await unacceptedPhone(seed, `pacto-claim-${seed}`);
  const accept = (stamp: Stamp): Signed => acceptStart(p.me, p.g.gameId, p.start, stamp);
  // The store with its reservation writes (and reads) counted.
  let calls = 0;
  const counted: PactoStore = {
    ...p.store,
    modifyReservation: (gameId, change) => {
      calls++;
      return p.store.modifyReservation(gameId, change);
    },
  };
  const storedOnce = async (): Promise<readonly string[]> => {
    let names: readonly string[] = [];
    await p.store.modifyReservation(p.g.gameId, (old) => ((names = old.once), null));
    return names;
  };
  /** A sign step that records it ran (with its stamp) and signs nothing to send. */
  const probe = () => {
    const runs: Stamp[] = [];
    return { runs, sign: (stamp: Stamp) => (runs.push(stamp), null) };
  };
  return { ...p, accept, counted, calls: () => calls, storedOnce, probe };
}

describe('a once-only name claimed ahead with another reservation', () => {
  it('is written with it, then signed by the claiming page with no write of its own, once', async () => {
    const p = await phone(201);
    const a = await p.tab(p.counted);
    const sent = await a.send(p.accept, { once: 'accept-start', claim: CLAIM });
    expect(sent).not.toBeNull();
    expect(await p.storedOnce()).toEqual(expect.arrayContaining(['accept-start', CLAIM]));
    const before = p.calls();
    const first = p.probe();
    expect(await a.send(first.sign, { once: CLAIM })).toBeNull();
    expect(first.runs).toHaveLength(1);
    expect(first.runs[0]!.seq).toBeGreaterThan(0);
    // No reservation transaction: the name was on disk, the number came from a block on disk.
    expect(p.calls()).toBe(before);
    // Used up: asked again, nothing is signed.
    const again = p.probe();
    expect(await a.send(again.sign, { once: CLAIM })).toBeNull();
    expect(again.runs).toHaveLength(0);
    p.replica.destroy();
    p.store.close();
  });

  it('another tab, and the same phone reopened after a crash, find it reserved and sign nothing', async () => {
    const p = await phone(202);
    const a = await p.tab(p.store);
    await a.send(p.accept, { once: 'accept-start', claim: CLAIM });
    const otherTab = await p.tab(p.store);
    const b = p.probe();
    expect(await otherTab.send(b.sign, { once: CLAIM })).toBeNull();
    expect(b.runs).toHaveLength(0);
    // The claiming page dies without giving it back (no releaseClaims): reopened, it signs nothing.
    const reopened = await p.tab(p.store);
    const c = p.probe();
    expect(await reopened.send(c.sign, { once: CLAIM })).toBeNull();
    expect(c.runs).toHaveLength(0);
    // The claiming page itself still signs it, once.
    const d = p.probe();
    await a.send(d.sign, { once: CLAIM });
    expect(d.runs).toHaveLength(1);
    p.replica.destroy();
    p.store.close();
  });

  it('given back unused (the page hidden or left): another tab signs it, and the page that claimed it no longer can', async () => {
    const p = await phone(203);
    const a = await p.tab(p.store);
    await a.send(p.accept, { once: 'accept-start', claim: CLAIM });
    await a.releaseClaims();
    expect(await p.storedOnce()).not.toContain(CLAIM);
    expect(await p.storedOnce()).toContain('accept-start');
    const otherTab = await p.tab(p.store);
    const b = p.probe();
    await otherTab.send(b.sign, { once: CLAIM });
    expect(b.runs).toHaveLength(1);
    expect(await p.storedOnce()).toContain(CLAIM);
    const c = p.probe();
    expect(await a.send(c.sign, { once: CLAIM })).toBeNull();
    expect(c.runs).toHaveLength(0);
    p.replica.destroy();
    p.store.close();
  });

  it('a send asking for it while it is being given back waits, then reserves it as any other name', async () => {
    const p = await phone(204);
    const a = await p.tab(p.counted);
    await a.send(p.accept, { once: 'accept-start', claim: CLAIM });
    const giving = a.releaseClaims();
    const before = p.calls();
    const b = p.probe();
    await a.send(b.sign, { once: CLAIM });
    await giving;
    expect(b.runs).toHaveLength(1);
    // Its own reservation this time (the name's write, after the one that gave it back).
    expect(p.calls()).toBeGreaterThan(before);
    expect(await p.storedOnce()).toContain(CLAIM);
    p.replica.destroy();
    p.store.close();
  });

  it('is not claimed when this device reserved it already: the claiming page signs nothing either', async () => {
    const p = await phone(205);
    const otherTab = await p.tab(p.store);
    const first = p.probe();
    await otherTab.send(first.sign, { once: CLAIM });
    expect(first.runs).toHaveLength(1);
    const a = await p.tab(p.store);
    expect(await a.send(p.accept, { once: 'accept-start', claim: CLAIM })).not.toBeNull();
    const b = p.probe();
    expect(await a.send(b.sign, { once: CLAIM })).toBeNull();
    expect(b.runs).toHaveLength(0);
    // Giving back claims gives back nothing another tab holds.
    await a.releaseClaims();
    expect(await p.storedOnce()).toContain(CLAIM);
    p.replica.destroy();
    p.store.close();
  });
});
