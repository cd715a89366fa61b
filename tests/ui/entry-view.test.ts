// A game's order entry works on the phase's map and rules as the reducer's view gives them
// (view.current.map, view.rules), the ones the adjudicator of the game uses: the two-player board
// offers nothing in Italy before the toss, and a "1914" game offers exactly what its adjudicator
// accepts. The game screen hands the view's map to the entry and the board (rendered here).
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import {
  ITALIAN_PROVINCES,
  adjudicate,
  formatOrder,
  legalOrdersForUnit,
  provinceOf,
  variantById,
  type AdjudicateOptions,
  type Order,
  type Power,
  type Unit,
  type VariantPhaseSetup,
} from '../../src/rules';
import type { GameView } from '../../src/protocol';
import { picker } from '../../src/util/prng';
import { BoardTab } from '../../src/ui/game/screens/BoardTab';
import { IDLE, entryView, readTypedOrders, tapLoc, type EntryContext } from '../../src/ui/orders/entry';
import { playVariantPhase, startedVariant, vview } from '../protocol/variants-helpers';
import { T0 } from '../protocol/helpers';
import { key as legalKey, movementCandidates } from '../rules/legal/helpers';
import { judge, newTally, type Item } from '../rules/legal/judge';
import { FakeWorld, HOUR, fakeSession, newPhoneState, type Scenario } from '../e2e/pages/screens/fake-world';
import { key, reachable } from './entry-walk';

/** The entry of a player holding every power required now, as the game screen builds it. */
function entryOf(view: GameView): EntryContext {
  const c = view.current!;
  return { position: c.position, powers: c.required, draft: [], map: c.map };
}

/** What the game's adjudicator is told in this phase (src/protocol/reduce.ts: map, rules, neutral). */
function optionsOf(view: GameView): AdjudicateOptions & { neutral: readonly Power[] } {
  return { map: view.current!.map, rules: view.rules!, neutral: view.neutral };
}

/** Every order the entry lets the player reach for the unit. */
function offered(ctx: EntryContext, unit: Unit): Set<string> {
  return reachable(ctx, tapLoc(IDLE, ctx, unit.loc).state);
}

/** Adjudicates the order alone (every other unit holding): why it is illegal, if it is. */
function illegal(view: GameView, o: Order): string | undefined {
  const r = adjudicate(view.current!.position, [o], optionsOf(view)).results.find((x) => x.order === o);
  return r?.reason?.kind === 'illegal' ? r.reason.why : undefined;
}

const ITALY = new Set(ITALIAN_PROVINCES);
const namesItaly = (o: Order): boolean =>
  (o.kind === 'move' || o.kind === 'retreat'
    ? [o.to]
    : o.kind === 'support'
      ? [o.supported.loc, ...(o.to ? [o.to] : [])]
      : o.kind === 'convoy'
        ? [o.army, o.to]
        : []
  ).some((l) => ITALY.has(provinceOf(l)));

describe('the view carries the phase map and rule switches', () => {
  it('two players before the toss: the view closes Italy, the entry offers no order into it, and F Tri - Ven is refused by the same adjudicator', () => {
    const game = startedVariant('two-players', 7);
    const view = vview(game);
    const c = view.current!;
    expect(c.map.armyEdges['ven']).toBeUndefined();
    expect(c.map.armyEdges['tyr']).not.toContain('ven');
    expect(view.rules).toEqual(variantById('two-players')!.rules);
    const ctx = entryOf(view);
    const tri = entryView(tapLoc(IDLE, ctx, 'tri').state, ctx);
    expect(tri.targets).toContain('adr');
    expect(tri.targets).not.toContain('ven');
    const units = c.position.units.filter((u) => c.required.includes(u.power));
    expect(units.length).toBeGreaterThan(15);
    let count = 0;
    for (const unit of units) {
      for (const k of offered(ctx, unit)) {
        const o = JSON.parse(k) as Order;
        count += 1;
        expect(namesItaly(o), k).toBe(false);
        expect(illegal(view, o), k).toBeUndefined();
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(illegal(view, { kind: 'move', power: 'austria', unit: { type: 'F', loc: 'tri' }, to: 'ven' })).toBe('not-adjacent');
  });

  it('two players after the toss: the view opens Italy again, and the entry offers F Tri - Ven', () => {
    const game = startedVariant('two-players', 8);
    playVariantPhase(game, {}, T0 + 100);
    playVariantPhase(game, {}, T0 + 200);
    let view = vview(game);
    for (let i = 0; i < 4 && view.current!.position.phase.kind !== 'movement'; i++) view = playVariantPhase(game, {}, T0 + 300 + i * 100);
    expect(view.current!.key).toBe('1915-spring-movement');
    expect(view.current!.map.armyEdges['tyr']).toContain('ven');
    const ctx = entryOf(view);
    expect(offered(ctx, { type: 'F', power: 'austria', loc: 'tri' })).toContain(
      key({ kind: 'move', power: 'austria', unit: { type: 'F', loc: 'tri' }, to: 'ven' }),
    );
  });

  it('"1914" rules: the view carries them, and the entry offers exactly what the game\'s adjudicator accepts', () => {
    const game = startedVariant('1914', 9);
    const view = vview(game);
    const c = view.current!;
    expect(view.rules).toMatchObject({ supportNeedsConsent: true, destroyDislodged: true, allOrdersRequired: true });
    const ctx = entryOf(view);
    const pick = picker(1914);
    const setup = { map: c.map, options: optionsOf(view) } as unknown as VariantPhaseSetup;
    const queues = c.position.units.map((unit) => {
      const entry = [...offered(ctx, unit)].map((k) => JSON.parse(k) as Order);
      // The entry is the legal-order list on the view's map, nothing more or less.
      expect(entry.map(key).sort()).toEqual(legalOrdersForUnit(c.position, unit.loc, c.map).map(key).sort());
      const items: Item[] = [
        ...entry.map((order) => ({ order, offered: true })),
        ...movementCandidates(pick, c.map, c.position, unit, 40).map((order) => ({ order, offered: false })),
      ];
      return { unit, offered: new Set(entry.map(legalKey)), items };
    });
    const tally = newTally();
    judge(c.position, setup, queues, '1914 start', tally);
    expect(tally.failures).toEqual([]);
    expect(Object.values(tally.offered).reduce((x, y) => x + y, 0)).toBeGreaterThan(200);
    expect(Object.values(tally.acceptedOthers).reduce((x, y) => x + y, 0)).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
  });

  it('"1914" rules: a support of the player\'s unit by a foreign unit, typed, is the player\'s consent, and the support counts', () => {
    const view = vview(startedVariant('1914', 10));
    const c = view.current!;
    // A foreign unit that may support a French unit's move (any such pair of the position).
    const consent = c.position.units
      .filter((u) => u.power !== 'france')
      .flatMap((u) => legalOrdersForUnit(c.position, u.loc, c.map))
      .find((o) => o.kind === 'support' && o.to !== undefined && c.position.units.some((f) => f.power === 'france' && f.loc === o.supported.loc))!;
    expect(consent).toBeDefined();
    const ctx: EntryContext = { ...entryOf(view), powers: ['france'], rules: view.rules! };
    for (const lang of ['es', 'en'] as const) {
      const typed = readTypedOrders(formatOrder(consent, lang, 'short', c.map), ctx, 'france', lang);
      expect(typed.errors).toEqual([]);
      expect(typed.orders).toEqual([{ ...consent, power: 'france' }]);
    }
    // The adjudicator of the game takes it as consent: the foreign support then counts.
    if (consent.kind !== 'support' || consent.to === undefined) throw new Error('not a support');
    const move: Order = { kind: 'move', power: 'france', unit: consent.supported, to: consent.to };
    const given = { ...consent, power: 'france' as const };
    const results = adjudicate(c.position, [move, consent, given], optionsOf(view)).results;
    expect(results.find((r) => r.order === given)).toMatchObject({ success: true });
    // Without the "1914" switch the same text is refused, naming the unit and its owner.
    const plain = readTypedOrders(formatOrder(consent, 'en', 'short', c.map), { ...ctx, rules: {} }, 'france', 'en');
    expect(plain.orders).toEqual([]);
    expect(plain.errors.map((e) => e.message)[0]).toMatch(/belongs to/);
  });

  it("the game screen draws the view's map: Italy is drawn closed on the two-player board before the toss", () => {
    const two: Scenario = {
      seed: 12,
      variant: 'two-players',
      holdings: [
        ['austria', 'germany', 'italy', 'turkey'],
        ['england', 'france', 'russia'],
      ],
      bots: [0],
      played: 0,
    };
    const world = new FakeWorld(two);
    const session = fakeSession(world, 1, newPhoneState(), T0 + HOUR, () => {});
    const html = renderToStaticMarkup(createElement(BoardTab, { session, lang: 'en' }));
    for (const id of ITALIAN_PROVINCES) expect(html.includes(`class="province land closed" data-province="${id}"`), id).toBe(true);
    expect(html.includes('class="province land" data-province="tyr"')).toBe(true);
    expect(html.match(/ closed"/g)?.length).toBe(ITALIAN_PROVINCES.length);
  });
});
