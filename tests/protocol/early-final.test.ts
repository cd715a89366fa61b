// The early FINAL (issue 17: one round fewer after the last seal). A player who marks its orders
// final ("ready") has its powers' FINALs signed at once, naming its latest commits, without waiting
// for the other powers' commits; the last sealer's FINAL then completes the FINALs and every phone
// locks one round earlier. The reducer never read *when* a FINAL came (ballot.ts: a FINAL is valid
// iff its slot is awaited and it names its holder's commit of that slot; pending while that commit
// is not held), so this is client behaviour only (client.ts ballotDuties `ready`). These are the
// cheats an early FINAL could enable, tried one by one (README.md "The sealed ballot", the early FINAL).
import { describe, expect, it } from 'vitest';
import { ballotDuties, canonicalText, concede, finalOrders, type GameView, type Signed } from '../../src/protocol';
import type { Order, Power } from '../../src/rules';
import { HOUR, T0 } from './helpers';
import { openWithShares, payloadOf, post, powersHeld, reduceAs, seal, settle, table, voteOut, type Device, type Table } from './sealed-adapter';

const move = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const hold = (power: Power, type: 'A' | 'F', loc: string): Order => ({ kind: 'hold', power, unit: { type, loc } });
const text = (orders: readonly Order[] | null | undefined) => (orders == null ? 'none' : canonicalText(orders));
const played = (t: Table, power: Power) => text(reduceAs(t, null).phases.at(-1)?.orders[power]);

const parBur = [move('france', 'A', 'par', 'bur')];
const parPic = [move('france', 'A', 'par', 'pic')];
const warGal = [move('russia', 'A', 'war', 'gal')];
const warSil = [move('russia', 'A', 'war', 'sil')];

const deviceOf = (t: Table, p: Power) => t.devices.find((d) => powersHeld(reduceAs(t, null), d).includes(p))!;
const phaseOf = (t: Table) => reduceAs(t, null).current!.key;

/**
 * What `d`'s phone signs when its player marks the open phase's orders final: the FINALs
 * ballotDuties says are due with `ready`, each naming the latest commit this device made (as the
 * app's duty loop does).
 */
function markFinal(t: Table, d: Device, time: number): Signed[] {
  const v = reduceAs(t, d);
  const phase = v.current!.key;
  const due = ballotDuties(v, d.key, { ready: phase });
  return post(
    t,
    due.finals.map((p) => finalOrders(d.me, t.gameId, phase, p as Power, d.commitsFor(phase, p as Power).at(-1)!, d.stamp(time))),
  );
}

/** Seals `orders` (or nothing: hold) for every awaited power `d` holds, then marks them final. */
function sealReady(t: Table, d: Device, orders: Partial<Record<Power, readonly Order[]>>, time: number): Signed[] {
  const v = reduceAs(t, d);
  for (const p of powersHeld(v, d)) if (v.current!.required.includes(p)) seal(t, d, p, orders[p] ?? [], time);
  return markFinal(t, d, time);
}

const lockDue = (t: Table, v: GameView) => t.devices.filter((d) => ballotDuties(v, d.key).lock).length;

describe('the reducer already takes a FINAL before every commit is in', () => {
  it('six players seal and mark final: their FINALs count at once; the last seal leaves only its own FINAL before every phone locks', () => {
    const t = table({ seed: 1701 });
    const turkey = t.devices[6]!;
    for (const d of t.devices.slice(0, 6)) {
      sealReady(t, d, { france: parBur }, T0 + HOUR);
    }
    let v = reduceAs(t, null);
    // Turkey has not sealed: still the orders stage, and the six FINALs are in the view, none ignored.
    expect(v.current!.ballot.stage).toBe('orders');
    expect(Object.keys(v.current!.ballot.finals).sort()).toEqual(['austria', 'england', 'france', 'germany', 'italy', 'russia']);
    const finalIds = Object.values(v.current!.ballot.finals).flat();
    expect(v.ignored.filter((i) => finalIds.includes(i.id))).toEqual([]);
    // Without the mark, a phone signs nothing before every power has sealed (today's rule).
    for (const d of t.devices) expect(ballotDuties(reduceAs(t, d), d.key).finals).toEqual([]);
    expect(lockDue(t, v)).toBe(0);
    // The last seal: Turkey's FINAL is due at once (today's rule), and nobody else has one left to sign.
    seal(t, turkey, 'turkey', [], T0 + HOUR + 1);
    v = reduceAs(t, null);
    expect(ballotDuties(reduceAs(t, turkey), turkey.key).finals).toEqual(['turkey']);
    for (const d of t.devices.slice(0, 6)) expect(ballotDuties(reduceAs(t, d), d.key).finals).toEqual([]);
    expect(lockDue(t, v)).toBe(0);
    // With Turkey's FINAL in, every phone's LOCK is due: one round (every FINAL) fewer than before.
    markFinal(t, turkey, T0 + HOUR + 1);
    expect(lockDue(t, reduceAs(t, null))).toBe(7);
    settle(t, t.devices, T0 + HOUR + 2);
    v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(played(t, 'france')).toBe(text(parBur));
    expect(v.misconduct).toEqual([]);
  });

  it('the mark waits for every awaited power of the player: a player holding Russia and Turkey that sealed one signs no FINAL yet', () => {
    const t = table({ seed: 1702, seats: [['austria'], ['england'], ['france'], ['germany'], ['italy'], ['russia', 'turkey']] });
    const rt = t.devices[5]!;
    seal(t, rt, 'russia', warGal, T0 + HOUR);
    expect(markFinal(t, rt, T0 + HOUR)).toEqual([]);
    seal(t, rt, 'turkey', [], T0 + HOUR);
    expect(
      markFinal(t, rt, T0 + HOUR)
        .map((s) => payloadOf(s.bytes).power as string)
        .sort(),
    ).toEqual(['russia', 'turkey']);
    // The mark is for one phase: marked for another, nothing is due.
    expect(ballotDuties(reduceAs(t, rt), rt.key, { ready: '1901-fall-movement' }).finals).toEqual([]);
  });
});

describe('attack 1: what an early FINAL tells, to a player with several powers or to a colluding pair', () => {
  it('a FINAL carries its phase, power and a commit id, nothing sealed: a colluding pair holding every share but one cannot open France’s commit', () => {
    const t = table({ seed: 1711 });
    const france = deviceOf(t, 'france');
    const commit = seal(t, france, 'france', parBur, T0 + HOUR);
    const [final] = markFinal(t, france, T0 + HOUR);
    const p = payloadOf(final!.bytes);
    expect(Object.keys(p).sort()).toEqual(['commit', 'from', 'game', 'phase', 'power', 'seq', 'time', 'type', 'v']);
    expect(p.commit).toBe(commit.id);
    // Everyone else seals and marks final; Germany and Russia (two keys) collude, with every share
    // but Turkey's that is dealt to the others: France's commit stays shut before the REVEALs.
    for (const d of t.devices.filter((x) => x !== france)) sealReady(t, d, {}, T0 + HOUR);
    const others = t.devices.filter((d) => d !== france && d !== deviceOf(t, 'turkey'));
    expect(openWithShares(t, commit.id, others)).toBeNull();
    expect(reduceAs(t, null).phases).toHaveLength(0);
    // With every holder's share it opens (the check above can fail): the shares are what open it, not the FINAL.
    expect(text(openWithShares(t, commit.id, [...others, deviceOf(t, 'turkey')]))).toBe(text(parBur));
  });

  it('a player holding Russia and Turkey finals Russia early, then re-seals and signs a second FINAL once the others are final: the later plan never counts', () => {
    const t = table({ seed: 1712, seats: [['austria'], ['england'], ['france'], ['germany'], ['italy'], ['russia', 'turkey']] });
    const rt = t.devices[5]!;
    seal(t, rt, 'russia', warGal, T0 + HOUR);
    seal(t, rt, 'turkey', [], T0 + HOUR);
    markFinal(t, rt, T0 + HOUR);
    for (const d of t.devices.slice(0, 5)) sealReady(t, d, {}, T0 + HOUR + 1);
    // Having seen every FINAL (nothing readable), it changes its mind: a new commit and a second FINAL.
    const phase = phaseOf(t);
    const later = seal(t, rt, 'russia', warSil, T0 + HOUR + 2);
    post(t, [finalOrders(rt.me, t.gameId, phase, 'russia', later.id, rt.stamp(T0 + HOUR + 2))]);
    settle(t, t.devices, T0 + HOUR + 3);
    const v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(played(t, 'russia')).not.toBe(text(warSil));
    expect(v.misconduct.some((m) => m.kind === 'equivocation' && m.author === rt.key)).toBe(true);
  });

  it('a pair where one marks final and the other withholds its FINAL: nobody locks before the withheld FINAL, and nothing opens', () => {
    const t = table({ seed: 1713 });
    const [germany, russia] = [deviceOf(t, 'germany'), deviceOf(t, 'russia')];
    for (const d of t.devices.filter((x) => x !== russia)) sealReady(t, d, {}, T0 + HOUR);
    seal(t, russia, 'russia', warGal, T0 + HOUR);
    // Russia sealed but keeps its FINAL back, Germany (final) watches: no LOCK is due, so no REVEAL.
    const v = reduceAs(t, null);
    expect(v.current!.ballot.stage).toBe('final');
    expect(lockDue(t, v)).toBe(0);
    expect(ballotDuties(v, germany.key).reveal).toBe(false);
    expect(v.phases).toHaveLength(0);
  });
});

describe('attack 2: a FINAL for a power one does not hold', () => {
  it('the creator and a stranger holding the invite sign France’s FINAL: both ignored, France still awaited, nothing locks early', () => {
    const t = table({ seed: 1721, spares: 1 });
    const france = deviceOf(t, 'france');
    const creator = t.devices[0]!;
    const stranger = t.spares[0]!;
    const commit = seal(t, france, 'france', parBur, T0 + HOUR);
    const phase = phaseOf(t);
    const forged = post(t, [
      finalOrders(creator.me, t.gameId, phase, 'france', commit.id, creator.stamp(T0 + HOUR)),
      finalOrders(stranger.me, t.gameId, phase, 'france', commit.id, stranger.stamp(T0 + HOUR)),
    ]);
    for (const d of t.devices.filter((x) => x !== france)) sealReady(t, d, {}, T0 + HOUR);
    let v = reduceAs(t, null);
    expect(v.current!.ballot.finals.france).toBeUndefined();
    for (const f of forged) expect(v.ignored.find((i) => i.id === f.id)?.reason).toBe('not-your-power');
    expect(lockDue(t, v)).toBe(0);
    // France's own mark completes the FINALs; the phase resolves with France's orders.
    markFinal(t, france, T0 + HOUR + 1);
    settle(t, t.devices, T0 + HOUR + 2);
    v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(played(t, 'france')).toBe(text(parBur));
  });
});

describe('attack 3: a FINAL naming a commit that is not the latest, or not yet arrived', () => {
  it('France re-seals and its FINAL names the first seal (a stale tab): the first seal counts, the holder’s word', () => {
    const t = table({ seed: 1731 });
    const france = deviceOf(t, 'france');
    const first = seal(t, france, 'france', parBur, T0 + HOUR);
    seal(t, france, 'france', parPic, T0 + HOUR + 1);
    post(t, [finalOrders(france.me, t.gameId, phaseOf(t), 'france', first.id, france.stamp(T0 + HOUR + 1))]);
    for (const d of t.devices.filter((x) => x !== france)) sealReady(t, d, {}, T0 + HOUR + 2);
    settle(t, t.devices, T0 + HOUR + 3);
    expect(reduceAs(t, null).phases).toHaveLength(1);
    expect(played(t, 'france')).toBe(text(parBur));
  });

  it('a phone that does not hold the commit yet reads the early FINAL as pending, never invalid; once the commit arrives it counts', () => {
    const t = table({ seed: 1732 });
    const france = deviceOf(t, 'france');
    const commit = seal(t, france, 'france', [hold('france', 'A', 'par')], T0 + HOUR);
    const [final] = markFinal(t, france, T0 + HOUR);
    const without = t.log.filter((b) => b !== commit.bytes);
    let v = reduceAs(t, null, without);
    expect(v.current!.ballot.finals.france).toBeUndefined();
    expect(v.ignored.some((i) => i.id === final!.id)).toBe(false);
    expect(v.current!.ballot.stage).toBe('orders');
    v = reduceAs(t, null);
    expect(v.current!.ballot.finals.france).toEqual([final!.id]);
  });
});

describe('attack 4: a power that finals early, then its holder goes', () => {
  it('France marks final and then falls silent (voted out after the deadline): its FINAL stands, its orders are opened by the shares and played', () => {
    const t = table({ seed: 1741 });
    const france = deviceOf(t, 'france');
    sealReady(t, france, { france: parBur }, T0 + HOUR);
    const present = t.devices.filter((d) => d !== france);
    for (const d of present) sealReady(t, d, {}, T0 + HOUR);
    // France's key never locks: the others wait, then vote France out after the reveal deadline.
    settle(t, present, T0 + HOUR + 1);
    expect(reduceAs(t, null).phases).toHaveLength(0);
    const v0 = reduceAs(t, null);
    const late = v0.current!.revealDeadline + HOUR;
    voteOut(t, present, ['france'], late);
    settle(t, present, late);
    const v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(played(t, 'france')).toBe(text(parBur));
  });

  it('France marks final and then concedes: its FINAL is ignored (its power is not awaited any more), nothing waits for it', () => {
    const t = table({ seed: 1742 });
    const france = deviceOf(t, 'france');
    const [final] = sealReady(t, france, { france: parBur }, T0 + HOUR);
    post(t, [concede(france.me, t.gameId, phaseOf(t), 'france', france.stamp(T0 + HOUR))]);
    for (const d of t.devices.filter((x) => x !== france)) sealReady(t, d, {}, T0 + HOUR);
    settle(t, t.devices, T0 + HOUR + 1);
    const v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(v.ignored.find((i) => i.id === final!.id)?.reason).toBe('final-for-slot-not-awaited');
    expect(v.phases[0]!.civilDisorder).toContain('france');
  });
});
