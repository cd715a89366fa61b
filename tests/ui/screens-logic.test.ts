// The in-game screens' pure helpers, on games played through the real protocol (fake-world.ts).
import { describe, expect, it } from 'vitest';
import { POWERS, STARTING_POSITION, formatOrder, provinceOf, type Order } from '../../src/rules';
import {
  centreSeries,
  countdown,
  drawState,
  historyJson,
  historyText,
  phaseLabel,
  phaseTask,
  positionAfter,
  pressEnabled,
  pressRecipients,
  powersOfKey,
  sealStatus,
  unitMoves,
} from '../../src/ui/game/screens/logic';
import { FakeWorld, HOUR, T0, THREE_PHONES, fakeSession, newPhoneState } from '../e2e/pages/screens/fake-world';

const ENGLAND = 1;
const FRANCE = 2;
const moveOrder = (from: string, to: string, type: 'A' | 'F', power: Order['power']): Order => ({ kind: 'move', power, unit: { type, loc: from }, to });

describe('who owes orders and who has sealed', () => {
  it('names the powers still to seal, and never the orders', () => {
    const world = new FakeWorld(THREE_PHONES);
    const t = T0 + HOUR;
    expect(phaseTask(world.view(), ['england'])).toEqual({ mine: ['england'], waitingFor: ['france'], required: POWERS });
    expect(sealStatus(world.view()).missing).toEqual(['england', 'france']);
    world.commit(ENGLAND, 'england', [moveOrder('lon', 'nth', 'F', 'england')], t);
    world.append(null, t);
    const st = sealStatus(world.view());
    expect(st.sealed).toEqual(['austria', 'england', 'germany', 'italy', 'russia', 'turkey']);
    expect(st.missing).toEqual(['france']);
    expect(st.revealed).toEqual([]);
    expect(phaseTask(world.view(), ['france']).waitingFor).toEqual([]);
  });

  it('resolves when the last power seals, and animates the units that moved', () => {
    const world = new FakeWorld(THREE_PHONES);
    const t = T0 + HOUR;
    world.commit(ENGLAND, 'england', [moveOrder('lon', 'nth', 'F', 'england')], t);
    world.commit(FRANCE, 'france', [moveOrder('par', 'bur', 'A', 'france'), moveOrder('bre', 'mao', 'F', 'france')], t);
    world.append(null, t);
    const v = world.view();
    expect(v.phases).toHaveLength(1);
    const after = positionAfter(v, 0)!;
    const moves = unitMoves(v.phases[0]!, after);
    const succeeded = v.phases[0]!.results.filter((r) => r.success && r.order.kind === 'move');
    expect(moves).toHaveLength(succeeded.length);
    for (const m of moves) expect(provinceOf(after.units[m.index]!.loc)).toBe(provinceOf(m.to));
    expect(moves.some((m) => m.from === 'lon' && m.to === 'nth')).toBe(true);
    expect(phaseLabel(v.current!.key, 'es')).toBe('Otoño 1901, movimientos');
    expect(phaseLabel(v.current!.key, 'en')).toBe('Fall 1901, movement');
  });
});

describe('history export', () => {
  const world = new FakeWorld({ ...THREE_PHONES, played: 6 });
  const v = world.view();

  it('lists every order of every phase in the rulebook notation, in either language', () => {
    expect(v.phases.length).toBeGreaterThanOrEqual(6); // phases only bots play resolve on their own
    for (const lang of ['es', 'en'] as const) {
      const text = historyText(v, lang);
      for (const phase of v.phases) {
        expect(text).toContain(phaseLabel(phase.key, lang));
        for (const p of POWERS) for (const o of phase.orders[p] ?? []) expect(text).toContain(`  ${formatOrder(o, lang)}\n`);
      }
      const orderLines = text.split('\n').filter((l) => l.startsWith('  ')).length;
      expect(orderLines).toBe(v.phases.reduce((n, ph) => n + POWERS.reduce((m, p) => m + (ph.orders[p]?.length ?? 0), 0), 0));
    }
  });

  it('exports JSON that reads back to the same phases', () => {
    const data = JSON.parse(historyJson(v)) as { gameId: string; phases: { phase: string; orders: unknown }[] };
    expect(data.gameId).toBe(v.gameId);
    expect(data.phases.map((p) => p.phase)).toEqual(v.phases.map((p) => p.key));
    expect(data.phases[0]!.orders).toEqual(JSON.parse(JSON.stringify(v.phases[0]!.orders)));
  });

  it('counts supply centres per year from the boards', () => {
    const series = centreSeries(v);
    expect(series.map((s) => s.year)).toEqual([...new Set([...v.phases.map((p) => p.position.phase.year), v.position!.phase.year])].sort());
    const first = v.phases.find((p) => p.position.phase.year === 1901) ? series[0]! : undefined;
    expect(first?.year).toBe(1901);
    for (const s of series) expect(Object.values(s.counts).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(34);
    const last = series[series.length - 1]!;
    for (const p of POWERS) expect(last.counts[p]).toBe(Object.values(v.position!.centres).filter((o) => o === p).length);
  });

  it('takes the starting centres for a game that has not resolved a phase', () => {
    const fresh = new FakeWorld(THREE_PHONES).view();
    const [only] = centreSeries(fresh);
    for (const p of POWERS) expect(only!.counts[p]).toBe(Object.values(STARTING_POSITION.centres).filter((o) => o === p).length);
  });
});

describe('countdown', () => {
  it('shows days, hours, minutes and seconds, and nothing once past', () => {
    expect(countdown(T0 + 90_000, T0)).toBe('0:01:30');
    expect(countdown(T0 + 26 * HOUR + 1, T0)).toBe('1d 2:00:01');
    expect(countdown(T0, T0)).toBeNull();
    expect(countdown(T0 - 1, T0)).toBeNull();
  });
});

describe('press and draws through a session', () => {
  it('delivers a private message to its recipient only', async () => {
    const world = new FakeWorld(THREE_PHONES);
    const eng = fakeSession(world, ENGLAND, newPhoneState(), T0 + HOUR, () => {});
    await eng.sendChat(['france'], 'Alianza contra Alemania');
    const france = world.chatsFor(FRANCE);
    expect(france).toHaveLength(1);
    expect(france[0]!.text).toBe('Alianza contra Alemania');
    expect(france[0]!.to).toEqual(['france']);
    expect(france[0]!.fromPower).toBe('england');
    expect(world.chatsFor(0)[0]!.text).toBeNull();
    const frState = newPhoneState();
    const fr = fakeSession(world, FRANCE, frState, T0 + HOUR, () => {});
    expect(fr.unread).toBe(1);
    fr.markChatsRead();
    expect(fakeSession(world, FRANCE, frState, T0 + HOUR, () => {}).unread).toBe(0);
  });

  it('writes to the powers others hold now, never to my own or a neutral one', () => {
    const world = new FakeWorld(THREE_PHONES);
    const v = world.view();
    const eng = world.phones[ENGLAND]!.me.id;
    expect(pressRecipients(v, eng)).toEqual(['austria', 'france', 'germany', 'italy', 'russia', 'turkey']);
    expect(powersOfKey(v, world.phones[0]!.me.id)).toEqual(['austria', 'germany', 'italy', 'russia', 'turkey']);
    // After a hand-over the protocol lists holders: France passed to England, Italy neutral.
    const handed = { ...v, holders: { ...v.roster!, france: eng }, neutral: ['italy'] } as typeof v;
    expect(pressRecipients(handed, eng)).toEqual(['austria', 'germany', 'russia', 'turkey']);
    expect(powersOfKey(handed, eng)).toEqual(['england', 'france']);
  });

  it('shows press unless the game is gunboat', () => {
    expect(pressEnabled(new FakeWorld(THREE_PHONES).view())).toBe(true);
    expect(pressEnabled(new FakeWorld({ ...THREE_PHONES, gunboat: true }).view())).toBe(false);
  });

  it('keeps draw votes sealed with the orders: a phone knows only its own vote until the phase resolves, then the tally shows', async () => {
    const world = new FakeWorld(THREE_PHONES);
    const state = newPhoneState();
    const eng = () => fakeSession(world, ENGLAND, state, T0 + HOUR, () => {});
    expect(drawState(world.view(), ['england'], eng().drawVotes)).toMatchObject({ mineVoted: false, mineVoters: ['england'], open: true });
    await eng().voteDraw(true);
    // England's own phone knows its vote; France's view of the same log shows nothing of it.
    expect(drawState(world.view(), ['england'], eng().drawVotes)).toMatchObject({ mineVoted: true, open: true });
    expect(drawState(world.view(), ['france']).mineVoted).toBe(false);
    expect(drawState(world.view(), ['france']).last).toBeUndefined();
    world.botsVoteDraw(T0 + HOUR);
    await fakeSession(world, FRANCE, newPhoneState(), T0 + HOUR, () => {}).voteDraw(true);
    expect(world.view().result).toMatchObject({ kind: 'draw' });
  });

  it('a single "no" shows the opened tally of the resolved phase and no draw', async () => {
    const world = new FakeWorld(THREE_PHONES);
    world.botsVoteDraw(T0 + HOUR);
    await fakeSession(world, ENGLAND, newPhoneState(), T0 + HOUR, () => {}).voteDraw(false);
    await fakeSession(world, FRANCE, newPhoneState(), T0 + HOUR, () => {}).voteDraw(true);
    const state = drawState(world.view(), ['france']);
    expect(world.view().result).toBeUndefined();
    expect(world.view().phases).toHaveLength(1);
    expect(state.last?.yes).toEqual(world.view().phases[0]!.drawVoters!.filter((p) => p !== 'england'));
    expect(state.last?.of).toBe(7);
  });
});

describe('deadlines', () => {
  it('a table game (deadline decades away) shows no countdown; a weekend game does', async () => {
    const { hasDeadline, countdown } = await import('../../src/ui/game/screens/logic');
    const opened = Date.UTC(2026, 10, 21);
    expect(hasDeadline({ openedAt: opened, deadline: opened + 1_000_000_000_000 })).toBe(false);
    expect(hasDeadline({ openedAt: opened, deadline: opened + 24 * 3600_000 })).toBe(true);
    expect(countdown(opened + 3_723_000, opened)).toBe('1:02:03');
  });
});
