// A game under the "1914" rules (seed 001) through the protocol: consent for foreign supports,
// dislodged units destroyed, every unit ordered, alliance victory.
import { describe, expect, it } from 'vitest';
import type { Order, Power } from '../../src/rules';
import { commitTurn, declareAlliance, sealCommit } from '../../src/protocol';
import { T0 } from './helpers';
import { holderOf, playVariantPhase, settleVariant, startedVariant, vview, type VariantGame } from './variants-helpers';

const mv = (power: Power, loc: string, to: string): Order => ({ kind: 'move', power, unit: { type: 'A', loc }, to });
/** `power` writes: the army at `at` supports the army at `from` into `to` (its own unit, or a consent for a foreign one). */
const sup = (power: Power, at: string, from: string, to: string): Order => ({
  kind: 'support',
  power,
  unit: { type: 'A', loc: at },
  supported: { type: 'A', loc: from },
  to,
});

/** Spring 1904: Russia to Galicia, Germany to Bohemia; everyone else holds. */
function springDone(seed: number): VariantGame {
  const game = startedVariant('1914', seed);
  playVariantPhase(game, { russia: [mv('russia', 'war', 'gal')], germany: [mv('germany', 'mun', 'boh')] }, T0 + 100);
  return game;
}

describe('1914 rules through the protocol', () => {
  it('lets a foreign support the supported power did not write fail: Vienna holds', () => {
    const game = springDone(41);
    const v = playVariantPhase(game, { russia: [mv('russia', 'gal', 'vie')], germany: [sup('germany', 'boh', 'gal', 'vie')] }, T0 + 200);
    const fall = v.phases[1]!;
    expect(fall.key).toBe('1904-fall-movement');
    expect(fall.results.find((r) => r.order.power === 'germany' && r.order.kind === 'support')?.success).toBe(false);
    expect(v.position!.units.find((u) => u.loc === 'vie')?.power).toBe('austria');
  });

  it('counts it when both write it, and the dislodged army is destroyed with no retreat phase', () => {
    const game = springDone(42);
    const v = playVariantPhase(
      game,
      { russia: [mv('russia', 'gal', 'vie'), sup('russia', 'boh', 'gal', 'vie')], germany: [sup('germany', 'boh', 'gal', 'vie')] },
      T0 + 200,
    );
    const fall = v.phases[1]!;
    expect(fall.dislodged.map((d) => d.unit.loc)).toEqual(['vie']);
    expect(v.position!.units.find((u) => u.loc === 'vie')?.power).toBe('russia');
    expect(v.position!.units.filter((u) => u.power === 'austria').map((u) => u.loc)).toEqual(['bud', 'tri']);
    expect(v.phases.map((p) => p.key)).not.toContain('1904-fall-retreat');
    expect(v.current!.key).toBe('1904-winter-adjustment');
  });

  it('refuses to seal while a unit has no order, and a commit made around the helper leaves those units holding', () => {
    const game = startedVariant('1914', 43);
    const v = vview(game);
    const italy = holderOf(game, v, 'italy');
    const partial = [mv('italy', 'ven', 'tyr')];
    const random = () => ({ secret: italy.random.bytes(32), nonce: italy.random.bytes(24), entropy: italy.random.bytes(32), coin: italy.random.bytes(32) });
    const refused = commitTurn(italy.me, game.gameId, v, 'italy', partial, random(), italy.stamp(T0 + 10));
    expect(refused).toEqual({ ok: false, reason: 'missing-orders', missing: ['nap', 'rom'] });
    // Same orders through the bare seal (no helper): accepted, units without order hold, and listed.
    const raw = sealCommit(italy.me, game.gameId, v, 'italy', partial, random(), italy.stamp(T0 + 11));
    game.log.push(raw.message.bytes);
    italy.secrets.set(raw.message.id, raw.secret);
    italy.commits.set(`${v.current!.key}|italy`, [raw.message.id]);
    const holds = (p: Power): Order[] =>
      v.current!.position.units.filter((u) => u.power === p).map((u) => ({ kind: 'hold', power: p, unit: { type: u.type, loc: u.loc } }));
    let w = vview(game);
    for (const p of w.current!.required.filter((x) => x !== 'italy')) game.log.push(holderOf(game, w, p).commit(game.gameId, w, p, holds(p), T0 + 12).bytes);
    settleVariant(game, T0 + 13);
    w = vview(game);
    expect(w.phases[0]!.unordered).toEqual(['nap', 'rom']);
    expect(w.position!.units.filter((u) => u.power === 'italy').map((u) => u.loc)).toEqual(['nap', 'rom', 'tyr']);
  });
});

describe('alliance victory (seed 001)', () => {
  // A threshold of 7 centres (settings.rules): no power has 7, England and Russia together do.
  const allied = (seed: number, members: Power[], signers: Power[] = members): VariantGame => {
    const game = startedVariant('1914', seed, { rules: { victoryCentres: 7 } });
    const v = vview(game);
    for (const p of signers) {
      const ph = holderOf(game, v, p);
      game.log.push(declareAlliance(ph.me, game.gameId, v.current!.key, p, members, true, ph.stamp(T0 + 5)).bytes);
    }
    return game;
  };

  it('wins jointly once it has stood two full years with enough centres', () => {
    const game = allied(51, ['england', 'russia']);
    let v = vview(game);
    expect(v.alliances).toEqual([{ powers: ['england', 'russia'], since: '1904-spring-movement' }]);
    playVariantPhase(game, {}, T0 + 100);
    v = playVariantPhase(game, {}, T0 + 200);
    expect(v.status).toBe('playing'); // one full year only
    playVariantPhase(game, {}, T0 + 300);
    v = playVariantPhase(game, {}, T0 + 400);
    expect(v.result).toEqual({ kind: 'victory', winners: ['england', 'russia'], phase: '1905-fall-movement', by: 'alliance' });
  });

  it('needs every member to sign it, and ends when one leaves', () => {
    const half = allied(52, ['england', 'russia'], ['england']);
    expect(vview(half).alliances).toEqual([]);
    for (let i = 1; i <= 4; i++) playVariantPhase(half, {}, T0 + 100 * i);
    expect(vview(half).status).toBe('playing');

    const game = allied(53, ['england', 'russia']);
    playVariantPhase(game, {}, T0 + 100);
    let v = playVariantPhase(game, {}, T0 + 200);
    const russia = holderOf(game, v, 'russia');
    game.log.push(declareAlliance(russia.me, game.gameId, v.current!.key, 'russia', ['england', 'russia'], false, russia.stamp(T0 + 250)).bytes);
    playVariantPhase(game, {}, T0 + 300);
    v = playVariantPhase(game, {}, T0 + 400);
    expect(v.status).toBe('playing');
    expect(v.alliances).toEqual([]);
  });

  it('does not exist under the classic rules', () => {
    const game = startedVariant('standard', 54, { rules: { victoryCentres: 7 } });
    const v = vview(game);
    for (const p of ['england', 'russia'] as Power[]) {
      const ph = holderOf(game, v, p);
      game.log.push(declareAlliance(ph.me, game.gameId, v.current!.key, p, ['england', 'russia'], true, ph.stamp(T0 + 5)).bytes);
    }
    for (let i = 1; i <= 4; i++) playVariantPhase(game, {}, T0 + 100 * i);
    expect(vview(game).status).toBe('playing');
  });
});
