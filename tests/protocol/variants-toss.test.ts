// The two-player game's coin toss for Italy, sealed with the Fall orders of the toss year.
import { describe, expect, it } from 'vitest';
import type { Order, Power } from '../../src/rules';
import { coinToss, commitTurn, finalOrders } from '../../src/protocol';
import { T0 } from './helpers';
import { playVariantPhase, startedVariant, vview, type VariantGame } from './variants-helpers';

const AGT = 'austria-germany-turkey';
const EFR = 'england-france-russia';
const coin = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (n * 31 + i * 7) & 255);
/** The side a fair toss of these two coins gives Italy to (the lower seat id on heads). */
const fairWinner = (a: Uint8Array, b: Uint8Array) =>
  coinToss(
    new Map([
      [AGT, a],
      [EFR, b],
    ]),
  )
    ? AGT
    : EFR;
/** The first coin n for England (against Austria's coin a) that makes `side` win. */
function coinFor(side: string, a: Uint8Array): Uint8Array {
  for (let n = 0; n < 64; n++) if (fairWinner(a, coin(n)) === side) return coin(n);
  throw new Error('no such coin');
}
const mv = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });

function toFall(seed: number, variant = 'two-players'): VariantGame {
  const game = startedVariant(variant, seed);
  playVariantPhase(game, {}, T0 + 100);
  return game;
}

describe('two players: Italy before the toss', () => {
  it('starts in 1914 with Italy neutral and closed: an attack on Venice is not even possible', () => {
    const game = startedVariant('two-players', 31);
    const v = playVariantPhase(
      game,
      {
        austria: [
          mv('austria', 'F', 'tri', 'ven'),
          { kind: 'support', power: 'austria', unit: { type: 'A', loc: 'vie' }, supported: { type: 'F', loc: 'tri' }, to: 'ven' },
        ],
      },
      T0 + 100,
    );
    expect(v.phases[0]!.key).toBe('1914-spring-movement');
    const results = v.phases[0]!.results.filter((r) => r.order.power === 'austria' && r.order.kind === 'move');
    expect(results.map((r) => r.reason)).toEqual([{ kind: 'illegal', why: 'not-adjacent' }]);
    expect(v.position!.units.filter((u) => u.power === 'italy').map((u) => u.loc)).toEqual(['nap', 'rom', 'ven']);
    expect(v.current!.required).not.toContain('italy');
  });
});

describe('two players: the coin toss', () => {
  it('gives Italy to the side the two coins pick, from Spring 1915, on the open board', () => {
    const a = coin(1);
    for (const side of [AGT, EFR]) {
      const b = coinFor(side, a);
      const game = toFall(32);
      const v = playVariantPhase(game, {}, T0 + 200, { coins: { austria: a, england: b } });
      expect(v.toss).toEqual({ phase: '1914-fall-movement', winner: side, revealed: [AGT, EFR] });
      expect(v.current!.key).toBe('1915-spring-movement');
      expect(v.neutral).toEqual([]);
      expect(v.current!.required).toContain('italy');
      const holder = game.phones.get(side)!.me.id;
      expect(v.holders!.italy).toBe(holder);
      expect(v.seats!.find((s) => s.id === side)!.powers).toContain('italy');
      // Italy now moves: its army in Venice walks into Tyrolia.
      const next = playVariantPhase(game, { italy: [mv('italy', 'A', 'ven', 'tyr')] }, T0 + 300);
      expect(next.position!.units.find((u) => u.power === 'italy' && u.loc === 'tyr')).toBeDefined();
    }
  });

  it('cannot be steered by either side alone: each side, whatever its coin, can meet a coin that beats it', () => {
    for (let n = 0; n < 8; n++) {
      const mine = coin(n);
      const results = new Set(Array.from({ length: 16 }, (_, k) => fairWinner(mine, coin(100 + k))));
      expect(results).toEqual(new Set([AGT, EFR]));
      const theirs = new Set(Array.from({ length: 16 }, (_, k) => fairWinner(coin(100 + k), mine)));
      expect(theirs).toEqual(new Set([AGT, EFR]));
    }
  });

  it('uses the coin sealed first: a side re-sealing after seeing the other reveal does not change the toss', () => {
    const a = coin(2);
    const losing = coinFor(AGT, a); // England's coin that loses
    const winning = coinFor(EFR, a);
    const game = toFall(33);
    let v = vview(game);
    const c = v.current!;
    const powers = c.required;
    const byPower = (p: Power) => game.phones.get(['austria', 'germany', 'turkey'].includes(p) ? AGT : EFR)!;
    for (const p of powers) game.log.push(byPower(p).commit(game.gameId, v, p, [], T0 + 200, p === 'austria' ? a : p === 'england' ? losing : undefined).bytes);
    // Both sides finalize and lock; Austria's side reveals, England's waits and reads Austria's coin.
    game.phones.get(EFR)!.steps(game, T0 + 201, true);
    game.phones.get(AGT)!.steps(game, T0 + 201);
    game.phones.get(EFR)!.steps(game, T0 + 201, true);
    game.phones.get(AGT)!.steps(game, T0 + 201);
    v = vview(game);
    expect(v.current?.ballot.reveals[game.phones.get(AGT)!.me.id]).toBeDefined();
    // England seals again with a winning coin and finalizes that, then reveals everything.
    const efr = byPower('england');
    const again = efr.commit(game.gameId, v, 'england', [], T0 + 202, winning);
    game.log.push(again.bytes, finalOrders(efr.me, game.gameId, c.key, 'england', again.id, efr.stamp(T0 + 202)).bytes);
    efr.steps(game, T0 + 203);
    v = vview(game);
    expect(v.toss?.winner).toBe(AGT);
  });

  it('gives Italy to the other side when one side does not reveal and its own clock agrees the deadline passed, even if its coin would have won', () => {
    const a = coin(3);
    const b = coinFor(EFR, a);
    const game = toFall(34);
    const v = playVariantPhase(game, {}, T0 + 200, { coins: { austria: a, england: b }, silent: ['england', 'france', 'russia'] });
    expect(v.phases[1]!.timedOut).toEqual(['england', 'france', 'russia']);
    expect(v.toss).toEqual({ phase: '1914-fall-movement', winner: AGT, revealed: [AGT] });
    expect(v.holders!.italy).toBe(game.phones.get(AGT)!.me.id);
  });

  it('leaves Italy neutral and closed when neither side reveals', () => {
    const game = toFall(35);
    // Both sides seal and neither reveals; each side's clock claims the deadline passed, and each side's vote times the other out.
    const v = playVariantPhase(game, {}, T0 + 200, { silent: ['austria', 'germany', 'turkey', 'england', 'france', 'russia'] });
    expect(v.toss).toEqual({ phase: '1914-fall-movement', winner: null, revealed: [] });
    expect(v.neutral).toEqual(['italy']);
  });

  it('seals a coin only in the toss phase', () => {
    const game = startedVariant('two-players', 36);
    const v = vview(game);
    const ph = game.phones.get(AGT)!;
    const r = commitTurn(
      ph.me,
      game.gameId,
      v,
      'austria',
      [],
      { secret: ph.random.bytes(32), nonce: ph.random.bytes(24), entropy: ph.random.bytes(32), coin: coin(1) },
      ph.stamp(T0 + 10),
    );
    expect(r.ok).toBe(true);
    const later = playVariantPhase(game, {}, T0 + 100);
    expect(later.toss).toBeUndefined();
  });

  it('under the 1914 rules tosses with the Fall 1904 orders and hands Italy over in Spring 1905', () => {
    const a = coin(4);
    const b = coinFor(EFR, a);
    const game = toFall(37, '1914-two-players');
    const v = playVariantPhase(game, {}, T0 + 200, { coins: { austria: a, england: b } });
    expect(v.toss?.phase).toBe('1904-fall-movement');
    expect(v.toss?.winner).toBe(EFR);
    expect(v.current!.key).toBe('1905-spring-movement');
    expect(v.holders!.italy).toBe(game.phones.get(EFR)!.me.id);
  });
});

describe('two players: the coin holder cannot be switched', () => {
  it("keeps Austria's coin as its side's coin even if Austria concedes in the toss phase", async () => {
    const { concede } = await import('../../src/protocol');
    const a = coin(5);
    const b = coinFor(EFR, a);
    const game = toFall(38);
    let v = vview(game);
    const agt = game.phones.get(AGT)!;
    game.log.push(concede(agt.me, game.gameId, v.current!.key, 'austria', agt.stamp(T0 + 150)).bytes);
    // Germany seals a coin that would beat England's; Austria is no longer awaited.
    const germanyWins = Array.from({ length: 64 }, (_, n) => coin(200 + n)).find((g) => fairWinner(g, b) === AGT)!;
    v = playVariantPhase(game, {}, T0 + 200, { coins: { germany: germanyWins, england: b } });
    expect(v.current?.required ?? []).not.toContain('austria');
    expect(v.toss).toEqual({ phase: '1914-fall-movement', winner: EFR, revealed: [EFR] });
  });
});
