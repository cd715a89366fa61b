// The legal-order list in positions named by hand: the convoys and supports it used to offer and
// the adjudicator refused, and the start of the games whose map or rules differ from the classic.
import { describe, expect, it } from 'vitest';
import {
  ITALIAN_PROVINCES,
  STANDARD_MAP,
  adjudicate,
  legalOrdersForUnit,
  provinceOf,
  variantById,
  variantPhase,
  type Order,
  type Phase,
  type Position,
  type Unit,
  type VariantPhaseSetup,
} from '../../../src/rules';
import { everyMovementOrder, key } from './helpers';
import { judge, newTally } from './judge';

const SPRING: Phase = { year: 1901, season: 'spring', kind: 'movement' };
const at = (units: Unit[]): Position => ({ phase: SPRING, units: [...units].sort((a, b) => (a.loc < b.loc ? -1 : 1)), centres: {}, dislodged: [] });
const reasonOf = (position: Position, o: Order) => adjudicate(position, [o]).results.find((r) => r.order === o)?.reason;

describe('convoys and supports the adjudicator refuses are not offered', () => {
  // Issue 14: with F nth, F hel and A lon the list offered F hel C A lon - den (and - bel, - edi,
  // - hol, - nwy, - yor). The North Sea alone carries the army there: Heligoland is on no route
  // without a shortcut, so its convoy order is illegal (DATC 4.E.1 / 6.G.19). Kiel is the one
  // place only a route through Heligoland reaches.
  const position = at([
    { type: 'F', power: 'england', loc: 'nth' },
    { type: 'F', power: 'germany', loc: 'hel' },
    { type: 'A', power: 'england', loc: 'lon' },
  ]);

  it('F hel is offered only the convoy to Kiel, F nth all seven', () => {
    const convoys = (loc: string) => legalOrdersForUnit(position, loc, STANDARD_MAP).flatMap((o) => (o.kind === 'convoy' ? [`${o.army}-${o.to}`] : []));
    expect(convoys('hel')).toEqual(['lon-kie']);
    expect(convoys('nth')).toEqual(['lon-bel', 'lon-den', 'lon-edi', 'lon-hol', 'lon-kie', 'lon-nwy', 'lon-yor']);
    for (const to of ['den', 'bel', 'edi', 'hol', 'nwy', 'yor']) {
      const o: Order = { kind: 'convoy', power: 'germany', unit: { type: 'F', loc: 'hel' }, army: 'lon', to };
      expect(reasonOf(position, o), to).toEqual({ kind: 'illegal', why: 'not-adjacent' });
    }
    const kie: Order = { kind: 'convoy', power: 'germany', unit: { type: 'F', loc: 'hel' }, army: 'lon', to: 'kie' };
    expect(reasonOf(position, kie)?.kind).not.toBe('illegal');
  });

  it('a fleet is not offered a support of the move only it could carry (DATC 6.D.31)', () => {
    const alone = at([
      { type: 'A', power: 'france', loc: 'pic' },
      { type: 'F', power: 'france', loc: 'eng' },
    ]);
    const supports = legalOrdersForUnit(alone, 'eng', STANDARD_MAP)
      .filter((o) => o.kind === 'support')
      .map(key);
    // Belgium and Brest the army reaches by land; London only through the Channel.
    expect(supports).toEqual(['france F eng S A pic', 'france F eng S A pic - bel', 'france F eng S A pic - bre']);
    const o: Order = { kind: 'support', power: 'france', unit: { type: 'F', loc: 'eng' }, supported: { type: 'A', loc: 'pic' }, to: 'lon' };
    expect(reasonOf(alone, o)).toEqual({ kind: 'illegal', why: 'support-unreachable' });
    // The army may still go: the move by convoy is offered, and the convoy.
    expect(legalOrdersForUnit(alone, 'pic', STANDARD_MAP).map(key)).toContain('france A pic - lon');
    expect(legalOrdersForUnit(alone, 'eng', STANDARD_MAP).map(key)).toContain('france F eng C A pic - lon');
  });
});

/** Every order of every shape for every unit the players order, judged by the adjudicator. */
function judgeEverything(position: Position, setup: VariantPhaseSetup): ReturnType<typeof newTally> {
  const tally = newTally();
  const queues = position.units
    .filter((u) => !setup.neutral.includes(u.power))
    .map((unit) => {
      const offered = legalOrdersForUnit(position, unit.loc, setup.map);
      const items = [
        ...offered.map((order) => ({ order, offered: true })),
        ...everyMovementOrder(setup.map, position, unit).map((order) => ({ order, offered: false })),
      ];
      return { unit, offered: new Set(offered.map(key)), items };
    });
  judge(position, setup, queues, 'start', tally);
  return tally;
}

describe('games on other maps and rules offer what their adjudicator accepts', () => {
  const two = variantById('two-players')!;
  const before = variantPhase(two, two.start.phase, null);

  it('the two-player board offers no order into Italy or at its units before the toss', () => {
    const start = two.start;
    const offered = start.units.flatMap((u) => legalOrdersForUnit(start, u.loc, before.map));
    const italian = (loc: string): boolean => ITALIAN_PROVINCES.includes(provinceOf(loc));
    const intoItaly = offered.filter(
      (o) =>
        !italian(o.kind === 'waive' ? '' : o.unit.loc) &&
        ((o.kind === 'move' && italian(o.to)) ||
          (o.kind === 'support' && (italian(o.supported.loc) || (o.to !== undefined && italian(o.to)))) ||
          (o.kind === 'convoy' && italian(o.to))),
    );
    expect(intoItaly.map(key)).toEqual([]);
    // Italy's units hold: they have nowhere to go.
    for (const u of start.units.filter((x) => italian(x.loc))) expect(legalOrdersForUnit(start, u.loc, before.map).map((o) => o.kind)).toEqual(['hold']);
    // It is the map that closes Italy: on the standard map (after the toss) Venice is offered.
    const after = variantPhase(two, { year: two.toss!.year + 1, season: 'spring', kind: 'movement' }, two.seats[0]!.id);
    expect(legalOrdersForUnit(start, 'tri', after.map).map(key)).toContain('austria F tri - ven');
    expect(legalOrdersForUnit(start, 'tri', before.map).map(key)).not.toContain('austria F tri - ven');
  });

  for (const [id, toss] of [
    ['standard', false],
    ['two-players', false],
    ['two-players', true],
    ['1914', false],
    ['1914-two-players', false],
  ] as const) {
    it(`${id}${toss ? ' after the toss' : ''}: at the start every order of every shape is offered exactly when it is accepted`, () => {
      const variant = variantById(id)!;
      const phase = toss ? { ...variant.start.phase, year: variant.toss!.year + 1 } : variant.start.phase;
      const setup = variantPhase(variant, phase, toss ? variant.seats[0]!.id : null);
      const tally = judgeEverything({ ...variant.start, phase }, setup);
      expect(tally.failures.slice(0, 10)).toEqual([]);
      expect(tally.offered['support'] ?? 0).toBeGreaterThan(50);
      expect(tally.acceptedOthers['move'] ?? 0).toBeGreaterThan(50);
      expect(tally.refused).toBeGreaterThan(10_000);
    });
  }
});
