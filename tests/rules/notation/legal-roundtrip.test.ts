// The parser reads every order the formatter writes: every legal order of every unit of random
// positions (movement, retreats, adjustments), written in Spanish and English, short and long,
// parses back to the same order, with the position and without it.
import { describe, expect, it } from 'vitest';
import {
  POWERS,
  adjudicate,
  adjustmentOrders,
  formatOrder,
  legalOrdersForUnit,
  parseOrder,
  variantById,
  variantPhase,
  type Order,
  type Position,
  type VariantPhaseSetup,
} from '../../../src/rules';
import { picker } from '../../../src/util/prng';
import { attackOrders, key, randomPosition } from '../legal/helpers';

const STYLES = [
  ['es', 'short'],
  ['es', 'long'],
  ['en', 'short'],
  ['en', 'long'],
] as const;

/** Random movement positions per setup; each also gives a retreat and an adjustment phase. */
const POSITIONS = 8;

function legalOrders(position: Position, setup: VariantPhaseSetup): Order[] {
  if (position.phase.kind === 'adjustment') {
    return POWERS.flatMap((p) => {
      const { builds, removals } = adjustmentOrders(position, p, setup.map);
      return [...builds, ...removals];
    });
  }
  const units = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : position.units;
  return units.flatMap((u) => legalOrdersForUnit(position, u.loc, setup.map));
}

/** Every way a legal order of the position is written that does not parse back to it. */
function misread(position: Position, setup: VariantPhaseSetup): { count: number; wrong: string[] } {
  const wrong: string[] = [];
  let count = 0;
  for (const order of legalOrders(position, setup)) {
    for (const [lang, style] of STYLES) {
      const text = formatOrder(order, lang, style, setup.map);
      for (const given of [position, undefined]) {
        const ctx = { power: order.power, phase: position.phase.kind, lang, map: setup.map, ...(given ? { position: given } : {}) };
        const r = parseOrder(text, ctx);
        count += 1;
        if (!r.ok) wrong.push(`${given ? 'with' : 'without'} position: "${text}" refused: ${JSON.stringify(r.error)}`);
        else if (key(r.order) !== key(order))
          wrong.push(`${given ? 'with' : 'without'} position: "${text}" read as ${key(r.order)}, written from ${key(order)}`);
      }
    }
  }
  return { count, wrong };
}

describe('every legal order, formatted, parses back to itself', () => {
  for (const [id, toss] of [
    ['standard', false],
    ['two-players', false],
    ['1914', false],
  ] as const) {
    it(`${id}: movement, retreat and adjustment positions`, () => {
      const variant = variantById(id)!;
      const setup = variantPhase(variant, variant.start.phase, toss ? variant.seats[0]!.id : null);
      const pick = picker(id.length * 7919);
      let count = 0;
      const wrong: string[] = [];
      const kinds = new Set<string>();
      for (let i = 0; i < POSITIONS; i++) {
        const position = randomPosition(pick, setup.map, setup.phase, 0.1 + pick(25) / 100);
        const legal = new Map(position.units.map((u) => [u.loc, legalOrdersForUnit(position, u.loc, setup.map)] as const));
        const next = adjudicate(position, attackOrders(pick, position, legal, 3, new Set(setup.neutral)), setup.options).next;
        const winter = randomPosition(pick, setup.map, { ...setup.phase, season: 'winter', kind: 'adjustment' }, 0.1 + pick(30) / 100);
        for (const p of [position, next, winter]) {
          const r = misread(p, setup);
          count += r.count;
          wrong.push(...r.wrong);
          for (const o of legalOrders(p, setup)) kinds.add(o.kind);
        }
      }
      expect(wrong.slice(0, 12)).toEqual([]);
      expect(count).toBeGreaterThan(5000);
      const expected = ['hold', 'move', 'support', 'convoy', 'build', 'remove', ...(setup.options.rules?.destroyDislodged ? [] : ['retreat', 'disband'])];
      expect([...kinds].sort()).toEqual(expected.sort());
    });
  }
});
