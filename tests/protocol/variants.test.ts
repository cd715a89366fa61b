// Variant games through the protocol: seats, neutral powers, short games, the 1914 rules.
import { describe, expect, it } from 'vitest';
import { VARIANTS, variantById, type Order, type Power } from '../../src/rules';
import { acceptStart, commitTurn, createGame, joinGame, reduceLog, sealCommit, startGame } from '../../src/protocol';
import { escrowOf, identity, rng, settings, T0 } from './helpers';
import { playVariantPhase, startedVariant, vview } from './variants-helpers';

const mv = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const sup = (power: Power, type: 'A' | 'F', loc: string, supported: string, to?: string): Order =>
  to === undefined
    ? { kind: 'support', power, unit: { type, loc }, supported: { type: 'A', loc: supported } }
    : { kind: 'support', power, unit: { type, loc }, supported: { type: 'A', loc: supported }, to };

describe('every variant starts through the protocol', () => {
  for (const variant of VARIANTS) {
    it(`${variant.id}: ${variant.players} players, awaiting exactly the played powers from ${variant.start.phase.year}`, () => {
      const game = startedVariant(variant.id, 7);
      const v = vview(game);
      expect(v.status).toBe('playing');
      expect(v.current!.position.phase.year).toBe(variant.start.phase.year);
      const played = variant.seats.flatMap((s) => s.powers).sort();
      expect([...v.current!.required]).toEqual(played);
      expect([...v.current!.active]).toEqual(played);
      expect(v.neutral).toEqual([...variant.neutral]);
      expect(v.seats!.map((s) => s.id)).toEqual(variant.seats.map((s) => s.id));
      // Every power of a seat is held by that seat's one key.
      for (const s of variant.seats) expect(new Set(s.powers.map((p) => v.holders![p])).size).toBe(1);
      expect(new Set(variant.seats.map((s) => v.holders![s.powers[0]!])).size).toBe(variant.players);
    });
  }
});

describe('seats and neutral powers', () => {
  it('lets one key seal for all the powers of its seat, and nobody for a neutral power or another seat', () => {
    const game = startedVariant('four-players', 11);
    let v = vview(game);
    const af = game.phones.get('austria-france')!;
    const eng = game.phones.get('england')!;
    // Four players: Italy is played by the Russian seat; the English phone may not seal for it.
    const r = commitTurn(
      eng.me,
      game.gameId,
      v,
      'italy',
      [],
      { secret: eng.random.bytes(32), nonce: eng.random.bytes(24), entropy: eng.random.bytes(32), coin: eng.random.bytes(32) },
      eng.stamp(T0 + 10),
    );
    if (!r.ok) throw new Error('refused');
    const stray = r.message;
    game.log.push(stray.bytes);
    game.log.push(af.commit(game.gameId, v, 'austria', [], T0 + 10).bytes, af.commit(game.gameId, v, 'france', [], T0 + 10).bytes);
    v = vview(game);
    expect(v.ignored).toContainEqual({ id: stray.id, reason: 'not-your-power' });
    expect(v.current!.committed).toEqual(['austria', 'france']);
  });

  it('ignores messages in the name of a neutral power and never awaits it', () => {
    const game = startedVariant('five-players', 12);
    const v = vview(game);
    const creator = game.phones.get('austria')!;
    // The creator's key is the neutral powers' placeholder in the roster, yet cannot act for them.
    const msg = sealCommit(
      creator.me,
      game.gameId,
      v,
      'germany',
      [],
      { secret: creator.random.bytes(32), nonce: creator.random.bytes(24), entropy: creator.random.bytes(32), coin: creator.random.bytes(32) },
      creator.stamp(T0 + 10),
    ).message;
    game.log.push(msg.bytes);
    const after = playVariantPhase(game, {}, T0 + 100);
    expect(after.ignored).toContainEqual({ id: msg.id, reason: 'neutral-power' });
    expect(after.phases[0]!.orders.germany).toBeUndefined();
    expect(after.current!.required).not.toContain('germany');
    expect(after.current!.required).not.toContain('italy');
  });

  it('destroys a dislodged neutral unit and moves on without a retreat phase', () => {
    const game = startedVariant('six-players', 13);
    // Spring: Austria to Tyrolia and Trieste holds; Fall: Trieste into Venice with Tyrolia's support.
    playVariantPhase(game, { austria: [mv('austria', 'A', 'vie', 'tyr')] }, T0 + 100);
    const v = playVariantPhase(game, { austria: [mv('austria', 'F', 'tri', 'ven'), sup('austria', 'A', 'tyr', 'tri', 'ven')] }, T0 + 200);
    const fall = v.phases[1]!;
    expect(fall.dislodged.map((d) => [d.unit.power, d.unit.loc, d.retreats])).toEqual([['italy', 'ven', []]]);
    expect(v.position!.units.filter((u) => u.power === 'italy').map((u) => u.loc)).toEqual(['nap', 'rom']);
    expect(v.current!.key).toBe('1901-winter-adjustment');
    expect(v.position!.centres['ven']).toBe('austria');
    // Italy lost a centre but owes no removal it could order: it is never awaited.
    expect(v.current!.required).not.toContain('italy');
  });

  it('refuses a START that splits a seat or gives two seats to one key', () => {
    const variant = variantById('three-players')!;
    const ids = [0, 1, 2].map((i) => identity(i));
    const random = rng(5);
    const { gameId, message } = createGame(ids[0]!, random.bytes(16), settings({ variant: 'three-players' }), { seq: 0, time: T0 });
    const log = [message.bytes, ...ids.map((id, i) => joinGame(id, gameId, `p${i}`, null, { seq: 1, time: T0 + 1 }).bytes)];
    const good = {} as Record<Power, string>;
    variant.seats.forEach((s, i) => s.powers.forEach((p) => (good[p] = ids[i]!.id)));
    const split = startGame(ids[0]!, gameId, { ...good, england: ids[1]!.id }, escrowOf(ids), { seq: 2, time: T0 + 2 });
    const joined = startGame(ids[0]!, gameId, { ...good, france: ids[0]!.id, turkey: ids[0]!.id }, escrowOf(ids), { seq: 3, time: T0 + 2 });
    const ok = startGame(ids[0]!, gameId, good, escrowOf(ids), { seq: 4, time: T0 + 2 });
    const accept = ids.slice(1).map((id) => acceptStart(id, gameId, ok, { seq: 5, time: T0 + 3 }).bytes);
    const v = reduceLog(gameId, [...log, split.bytes, joined.bytes, ok.bytes, ...accept]);
    expect(v.ignored).toContainEqual({ id: split.id, reason: 'start-roster-splits-a-seat' });
    expect(v.ignored).toContainEqual({ id: joined.id, reason: 'start-roster-joins-seats' });
    expect(v.status).toBe('playing');
    expect(v.holders!.russia).toBe(ids[2]!.id);
  });

  it('counts centres and adjustments per power although one player holds several', () => {
    const game = startedVariant('three-players', 14);
    // Germany (in the seat with England and Austria) takes Holland and Belgium: the builds are Germany's alone.
    let v = playVariantPhase(game, { germany: [mv('germany', 'A', 'mun', 'ruh'), mv('germany', 'F', 'kie', 'hol')] }, T0 + 100);
    v = playVariantPhase(game, { germany: [mv('germany', 'A', 'ruh', 'bel')] }, T0 + 200);
    expect(v.current!.key).toBe('1901-winter-adjustment');
    // Germany alone owes builds; its seat-mates England and Austria have nothing to adjust.
    expect(v.current!.required).toEqual(['germany']);
    const counts = (p: Power) => Object.values(v.position!.centres).filter((o) => o === p).length;
    expect([counts('germany'), counts('england'), counts('austria')]).toEqual([5, 3, 3]);
  });
});

describe('short games', () => {
  it('ends after the agreed year; the player (seat) with most units wins', () => {
    const game = startedVariant('four-players', 21, { endYear: 1901 });
    let v = playVariantPhase(game, {}, T0 + 100);
    expect(v.status).toBe('playing');
    v = playVariantPhase(game, {}, T0 + 200);
    expect(v.status).toBe('finished');
    // Italy and Russia: 3 + 4 units, more than any other seat's 6 or 3.
    expect(v.result).toEqual({ kind: 'short-game', winners: ['italy', 'russia'], phase: '1901-fall-movement' });
  });

  it('uses the variant start year: a 1914-rules game agreed to end in 1904 ends after Fall 1904', () => {
    const game = startedVariant('1914', 22, { endYear: 1904 });
    playVariantPhase(game, {}, T0 + 100);
    const v = playVariantPhase(game, {}, T0 + 200);
    expect(v.result).toEqual({ kind: 'short-game', winners: ['russia'], phase: '1904-fall-movement' });
  });
});

describe('drawing seats by lot', () => {
  it('deals whole seats, and in the standard game exactly what dealPowers deals', async () => {
    const { dealPowers, dealSeats } = await import('../../src/protocol');
    const r = rng(77);
    const players = [0, 1, 2].map((i) => identity(i).id);
    const values = new Map(players.map((k) => [k, r.bytes(32)] as const));
    const standard = variantById('standard')!;
    expect(dealSeats(players, values, standard.seats)).toEqual(dealPowers(players, values));
    const three = variantById('three-players')!;
    const dealt = dealSeats(players, values, three.seats);
    expect(Object.keys(dealt).sort()).toEqual(['austria', 'england', 'france', 'germany', 'italy', 'russia', 'turkey']);
    for (const s of three.seats) expect(new Set(s.powers.map((p) => dealt[p])).size).toBe(1);
    expect(new Set(Object.values(dealt)).size).toBe(3);
  });
});
