// The Game tab's variant panel (seats, neutral powers, closed Italy, the coin toss, "1914"
// alliances with a form to declare one) and the list of units that held without orders.
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { POWERS } from '../../src/rules';
import { VariantPanel } from '../../src/ui/game/screens/VariantPanel';
import { Unordered } from '../../src/ui/game/screens/Unordered';
import { allianceChoices, variantInfo } from '../../src/ui/game/screens/variant-info';
import { SCREEN_STRINGS } from '../../src/ui/game/screens/strings';
import { FakeWorld, HOUR, T0, fakeSession, newPhoneState, type Scenario } from '../e2e/pages/screens/fake-world';

const SEVEN_1914: Scenario = { seed: 11, variant: '1914', holdings: POWERS.map((p) => [p]), bots: [0, 3, 4, 5, 6], played: 0 };
const TWO: Scenario = {
  seed: 12,
  variant: 'two-players',
  holdings: [
    ['austria', 'germany', 'italy', 'turkey'],
    ['england', 'france', 'russia'],
  ],
  bots: [0],
  played: 0,
};

describe('variant panel', () => {
  it('"1914": seven seats, no neutral power, alliances declared by both members stand and are listed', async () => {
    const world = new FakeWorld(SEVEN_1914);
    const info = variantInfo(world.view(), 'en')!;
    expect(info.id).toBe('1914');
    expect(info.seats.map((s) => s.powers)).toEqual(POWERS.map((p) => [p]));
    expect(info.seats[1]!.players).toEqual(['Bruno']);
    expect(info.neutral).toEqual([]);
    expect(info.alliancesAllowed).toBe(true);
    expect(info.toss).toBeUndefined();
    expect(allianceChoices(world.view(), ['england']).mine).toEqual(['england']);

    const eng = fakeSession(world, 1, newPhoneState(), T0 + HOUR, () => {});
    const fra = fakeSession(world, 2, newPhoneState(), T0 + HOUR, () => {});
    await eng.declareAlliance!('england', ['england', 'france'], true);
    expect(world.view().alliances).toEqual([]);
    await fra.declareAlliance!('france', ['france', 'england'], true);
    expect(world.view().alliances?.map((a) => a.powers)).toEqual([['england', 'france']]);

    for (const lang of ['es', 'en'] as const) {
      const html = renderToStaticMarkup(createElement(VariantPanel, { session: fakeSession(world, 1, newPhoneState(), T0 + HOUR, () => {}), lang }));
      expect(html).toContain('data-alliances="1"');
      expect(html).toContain(SCREEN_STRINGS[lang].allianceDeclare);
      expect(html).toContain('data-alliance-member="france"');
      expect(html).not.toContain('data-alliance-member="england"');
    }
  });

  it('two players: two seats, Italy neutral and closed, the toss still to come', () => {
    const world = new FakeWorld(TWO);
    const view = world.view();
    const info = variantInfo(view, 'es')!;
    expect(info.seats.map((s) => s.powers)).toEqual([
      ['austria', 'germany', 'turkey'],
      ['england', 'france', 'russia'],
    ]);
    expect(info.neutral).toEqual(['italy']);
    expect(info.italyClosed).toBe(true);
    expect(info.toss).toMatchObject({ done: false, winner: null });
    expect(info.toss!.phase).toMatch(/^\d+-fall-movement$/);
    expect(info.alliancesAllowed).toBe(false);
    const html = renderToStaticMarkup(createElement(VariantPanel, { session: fakeSession(world, 1, newPhoneState(), T0 + HOUR, () => {}), lang: 'en' }));
    expect(html).toContain(SCREEN_STRINGS.en.italyClosed);
    expect(html).toContain('data-toss="pending"');
    expect(html).toContain('data-neutral="italy"');
    expect(html).not.toContain('alliance-form');
  });

  it('the standard game shows its seven seats and nothing about a toss or alliances', () => {
    const world = new FakeWorld({ seed: 13, holdings: POWERS.map((p) => [p]), bots: [0, 1, 2, 3, 4, 5, 6], played: 0 });
    const html = renderToStaticMarkup(createElement(VariantPanel, { session: fakeSession(world, 1, newPhoneState(), T0 + HOUR, () => {}), lang: 'es' }));
    expect(html).toContain('data-seats="7"');
    expect(html).not.toContain('data-toss');
    expect(html).not.toContain('data-alliances');
  }, 90_000);
});

describe('units that held without orders', () => {
  it('names each unit in the notation of the language, and shows nothing when there are none', () => {
    const world = new FakeWorld({ seed: 14, holdings: POWERS.map((p) => [p]), bots: [0, 1, 2, 3, 4, 5, 6], played: 1 });
    const phase = world.view().phases[0]!;
    expect(renderToStaticMarkup(createElement(Unordered, { phase, lang: 'en' }))).toBe('');
    const html = renderToStaticMarkup(createElement(Unordered, { phase: { ...phase, unordered: ['par', 'stp/sc'] }, lang: 'en' }));
    expect(html).toContain('data-unordered="2"');
    expect(html).toContain(SCREEN_STRINGS.en.unorderedTitle);
    expect(html).toMatch(/A Par/);
    expect(html).toMatch(/F St?p/i);
  }, 90_000);
});
