// GameScreen rendered in node (react-dom/server) from fake sessions over real protocol logs:
// phases that are not this player's show "waiting for" with the powers named; strings complete;
// the Game tab's draw section under v2 (sealed votes, the last opened tally by people).
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { POWERS, formatLoc, type Power } from '../../src/rules';
import { GameScreen } from '../../src/ui/game/screens/GameScreen';
import { ResultsTab } from '../../src/ui/game/screens/ResultsTab';
import { centreChanges } from '../../src/ui/orders/CentreChanges';
import { ORDER_STRINGS } from '../../src/ui/orders/strings';
import { phaseTask } from '../../src/ui/game/screens/logic';
import { SCREEN_STRINGS } from '../../src/ui/game/screens/strings';
import { STRINGS } from '../../src/ui/i18n';
import { finalOrders } from '../../src/protocol';
import { FakeWorld, HOUR, T0, THREE_PHONES, fakeSession, newPhoneState } from '../e2e/pages/screens/fake-world';

const FRANCE = 2;

/** Plays random phases until one that France takes no part in (a retreat or an adjustment). */
function worldAtPhaseWithoutFrance(): FakeWorld {
  const world = new FakeWorld(THREE_PHONES, [FRANCE]);
  for (let i = 0; i < 40; i++) {
    const c = world.view().current!;
    if (!c.required.includes('france') && c.required.length > 0) return world;
    world.playAll(T0 + (i + 1) * HOUR);
  }
  throw new Error('no phase without France within 40 phases');
}

function leaves(value: unknown, path = ''): [string, unknown][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, (value as (...a: unknown[]) => unknown)(2, 3, 'X')]];
  return Object.entries(value as object).flatMap(([k, v]) => leaves(v, `${path}.${k}`));
}

describe('GameScreen in node', () => {
  const world = worldAtPhaseWithoutFrance();
  const view = world.view();
  const c = view.current!;

  it('tells France whom it waits for in a phase only others play', () => {
    const task = phaseTask(view, ['france']);
    expect(task.mine).toEqual([]);
    expect(c.position.phase.kind).not.toBe('movement');
    for (const lang of ['es', 'en'] as const) {
      const html = renderToStaticMarkup(createElement(GameScreen, { session: fakeSession(world, FRANCE, newPhoneState(), c.openedAt, () => {}), lang }));
      const s = SCREEN_STRINGS[lang];
      expect(html).toContain(s.nothingYou);
      // The status line names each player still to seal, with their powers.
      const open = c.required.filter((p) => !c.committed.includes(p));
      expect(open.length).toBeGreaterThan(0);
      for (const p of open) {
        const holder = world.phones.find((ph) => ph.powers.includes(p))!;
        expect(html).toContain(holder.name);
        expect(html).toContain(STRINGS[lang].powers[p]);
      }
      expect(html).toContain(lang === 'es' ? 'Esperando a ' : 'Waiting for ');
      expect(html).toContain(s.waitingOnly(c.required.map((p) => STRINGS[lang].powers[p]).join(', ')));
      expect(html).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('offers order entry and the seal to the powers the phase awaits', () => {
    const fresh = new FakeWorld(THREE_PHONES);
    const html = renderToStaticMarkup(createElement(GameScreen, { session: fakeSession(fresh, FRANCE, newPhoneState(), T0 + HOUR, () => {}), lang: 'en' }));
    expect(html).toContain(SCREEN_STRINGS.en.seal);
    expect(html).toContain(SCREEN_STRINGS.en.waitingPeople('Bruno (England)', 'France'));
    expect(html).toContain('data-province="par"');
  });

  it('shows misconduct at the top, naming the player and the power', () => {
    const w = new FakeWorld(THREE_PHONES);
    const eng = w.phones[1]!;
    const key = w.view().current!.key;
    // Two FINALs for one power: equivocation, which every phone must see.
    w.commit(1, 'england', [], T0 + 1);
    w.commit(1, 'england', [], T0 + 2);
    for (const id of eng.commits.get(`${key}|england`)!) w.log.push(finalOrders(eng.me, w.gameId, key, 'england', id, eng.stamp(T0 + 3)).bytes);
    expect(w.view().misconduct.map((m) => m.kind)).toContain('equivocation');
    const html = renderToStaticMarkup(createElement(GameScreen, { session: fakeSession(w, FRANCE, newPhoneState(), T0 + HOUR, () => {}), lang: 'es' }));
    expect(html).toContain('role="alert"');
    expect(html).toContain(`${eng.name} (Inglaterra) ${SCREEN_STRINGS.es.misconduct.equivocation}`);
  });

  it('says under the results which centres changed hands, with the old and new owner', () => {
    const w = new FakeWorld(THREE_PHONES);
    const changed = () => {
      const v = w.view();
      const last = v.phases[v.phases.length - 1];
      return last && v.position ? centreChanges(last.position, v.position) : [];
    };
    for (let i = 0; i < 40 && changed().length === 0; i++) w.playAll(T0 + (i + 1) * HOUR);
    const changes = changed();
    expect(changes.length).toBeGreaterThan(0);
    for (const lang of ['es', 'en'] as const) {
      const html = renderToStaticMarkup(createElement(ResultsTab, { session: fakeSession(w, FRANCE, newPhoneState(), T0 + HOUR, () => {}), lang }));
      expect(html).toContain(`<h4>${ORDER_STRINGS[lang].centresChanged}</h4>`);
      for (const ch of changes) {
        const owner = (p: Power | undefined) => (p ? STRINGS[lang].powers[p] : ORDER_STRINGS[lang].unownedCentre);
        const line = new RegExp(
          `<li data-centre="${ch.province}"[^>]*><strong>${formatLoc(ch.province, lang, 'long')}</strong>: <span[^>]*>.*?${owner(ch.from)}</span> → <span[^>]*>.*?${owner(ch.to)}</span></li>`,
        );
        expect(html).toMatch(line);
      }
    }
  });

  it('keeps the countdown line once the deadline has passed, saying so (the board below does not move)', () => {
    const countdownLine = (now: number, lang: 'es' | 'en') =>
      renderToStaticMarkup(createElement(GameScreen, { session: fakeSession(world, FRANCE, newPhoneState(), now, () => {}), lang })).match(
        /<span class="header-countdown[^"]*">(.*?)<\/span>/,
      )?.[1];
    expect(c.deadline).toBeGreaterThan(c.openedAt);
    for (const lang of ['es', 'en'] as const) {
      const s = SCREEN_STRINGS[lang];
      expect(countdownLine(c.openedAt, lang)).toContain(s.timeLeft);
      expect(countdownLine(c.deadline + 1, lang)).toBe(s.pastDeadline);
    }
  });

  it('has every screen string in both languages, none empty, and not left untranslated by accident', () => {
    const es = new Map(leaves(SCREEN_STRINGS.es));
    const en = new Map(leaves(SCREEN_STRINGS.en));
    expect([...en.keys()]).toEqual([...es.keys()]);
    for (const [k, v] of [...es, ...en]) expect(typeof v === 'string' && v.trim().length > 0, k).toBe(true);
    const same = [...es.keys()].filter((k) => es.get(k) === en.get(k));
    expect(same).toEqual(['.chartLabel']); // 'Power: 1901: 3, ...' reads the same in both
    for (const p of POWERS) expect(STRINGS.es.powers[p]).toBeTruthy();
  });
});

describe("the Game tab's draw section", () => {
  it("shows nothing of the open phase's sealed votes, then the last phase's opened votes by the people who cast them", async () => {
    const { GameTab } = await import('../../src/ui/game/screens/GameTab');
    const world = new FakeWorld({ ...THREE_PHONES, bots: [0, 1] }, [0, 1, 2]);
    const render = () =>
      renderToStaticMarkup(createElement(GameTab, { session: fakeSession(world, FRANCE, newPhoneState(), T0 + HOUR, () => {}), lang: 'en' }));
    const before = render();
    expect(before).toContain('data-action="draw-yes"');
    expect(before).not.toContain('data-draw-yes');
    // Ana (five powers) and Bruno re-seal with a yes: sealed, so the tab shows the same as before.
    world.botsVoteDraw(T0 + HOUR);
    expect(render()).toBe(before);
    await fakeSession(world, FRANCE, newPhoneState(), T0 + HOUR, () => {}).voteDraw(false);
    const after = render();
    const en = SCREEN_STRINGS.en;
    expect(after).toContain('data-draw-yes="2" data-draw-of="3"');
    expect(after).toContain(`${en.drawCommitted(2, 3)}: Ana (Austria, Germany, Italy, Russia, Turkey), Bruno (England)`);
  });
});
