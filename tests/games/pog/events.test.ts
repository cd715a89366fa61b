import { describe, expect, it } from 'vitest';
import { CARDS, card } from '../../../src/games/pog/data';
import { EVENTS, eventBuilt } from '../../../src/games/pog/events';
import { apply, legalChoices, toAct, type Choice } from '../../../src/games/pog/sequence';
import { newGame, type PogState } from '../../../src/games/pog/state';

const mob = (side: 'ap' | 'cp') => CARDS.filter((c) => c.side === side && c.commitment === 'mobilization').map((c) => c.id);

/** The action phase of August 1914, with the given cards added to the hands and state changed. */
function position(change: Partial<PogState> = {}, extra: { ap?: string[]; cp?: string[] } = {}): PogState {
  const s = apply(
    newGame('campaign', { gunsOfAugust: true, deal: { ap: mob('ap').slice(0, 7), cp: mob('cp').slice(1, 7) } }),
    { kind: 'roll-mandated' },
    { dice: [2, 4] },
  );
  const decks = {
    ap: { ...s.decks.ap, hand: [...s.decks.ap.hand, ...(extra.ap ?? [])] },
    cp: { ...s.decks.cp, hand: [...s.decks.cp.hand, ...(extra.cp ?? [])] },
  };
  return { ...s, decks, ...change };
}

const event = (id: string): Choice => ({ kind: 'play', card: id, as: 'event' });
const offered = (s: PogState, id: string) => legalChoices(s).some((c) => c.kind === 'play' && c.card === id && c.as === 'event');
/** The Central Powers pass their action with an RP play, so that it is the Allies' turn. */
const cpPasses = (s: PogState): PogState =>
  apply(
    s,
    legalChoices(s).find((c) => c.kind === 'play' && c.as === 'rp')!,
  );

describe('built events (9.5)', () => {
  it('are keys of real cards, none of them combat cards', () => {
    for (const key of Object.keys(EVENTS)) {
      const cards = CARDS.filter((c) => c.event === key);
      expect(cards, key).toHaveLength(1);
      expect(cards[0]!.combat, key).toBeUndefined();
      expect(eventBuilt(cards[0]!.id)).toBe(true);
    }
    expect(eventBuilt('cp-1')).toBe(false);
  });

  it('Reichstag Truce (CP 9): +1 VP and war status 1, the card removed; not at Total War', () => {
    const s = position({}, { cp: ['cp-9'] });
    expect(offered(s, 'cp-9')).toBe(true);
    const after = apply(s, event('cp-9'));
    expect([after.vp, after.warStatus.cp, after.combined, after.warStatus.ap]).toEqual([11, 1, 1, 0]);
    expect(after.decks.cp.removed).toEqual(['cp-9']);
    expect(after.decks.cp.hand).not.toContain('cp-9');
    expect(after.events).toContain('reichstag_truce');
    expect(after.actions.cp).toEqual([{ kind: 'event', card: 'cp-9' }]);
    expect(toAct(after)).toBe('ap');
    expect(offered(position({ commitment: { ap: 'mobilization', cp: 'total' } }, { cp: ['cp-9'] }), 'cp-9')).toBe(false);
  });

  it('a player at Total War adds war status to the combined marker only (16.1.6)', () => {
    const s = position({ commitment: { ap: 'mobilization', cp: 'total' }, warStatus: { ap: 3, cp: 12 }, combined: 15 }, { cp: ['cp-54'] });
    const after = apply(s, event('cp-54'));
    expect([after.warStatus.cp, after.combined]).toEqual([12, 17]);
    expect(after.events).toContain('h_l_take_command');
    expect(after.vp).toBe(s.vp);
  });

  it('Rape of Belgium (AP 13): -1 VP, only after Guns of August and while the Allies are at Mobilization', () => {
    const base = position({}, { ap: ['ap-13'] });
    expect(offered(cpPasses(base), 'ap-13')).toBe(false);
    const s = cpPasses(position({ events: ['guns_of_august'] }, { ap: ['ap-13'] }));
    expect(offered(s, 'ap-13')).toBe(true);
    const after = apply(s, event('ap-13'));
    expect([after.vp, after.warStatus.ap, after.combined]).toEqual([s.vp - 1, 2, 2]);
    expect(after.decks.ap.removed).toEqual(['ap-13']);
    expect(offered(cpPasses(position({ events: ['guns_of_august'], commitment: { ap: 'limited', cp: 'limited' } }, { ap: ['ap-13'] })), 'ap-13')).toBe(false);
  });

  it('Lusitania (AP 26): -1 VP, only after Blockade and before the Zimmermann Telegram', () => {
    expect(offered(cpPasses(position({}, { ap: ['ap-26'] })), 'ap-26')).toBe(false);
    const s = cpPasses(position({ events: ['blockade'] }, { ap: ['ap-26'] }));
    expect(apply(s, event('ap-26')).vp).toBe(s.vp - 1);
    expect(offered(cpPasses(position({ events: ['blockade', 'zimmermann_telegram'] }, { ap: ['ap-26'] })), 'ap-26')).toBe(false);
  });

  it('Landships (AP 28): a lasting permission, no VP', () => {
    const s = cpPasses(position({}, { ap: ['ap-28'] }));
    const after = apply(s, event('ap-28'));
    expect(after.events).toContain('landships');
    expect([after.vp, after.combined]).toEqual([s.vp, s.combined]);
  });

  it('Zimmermann Telegram (AP 54): from combined war status 30; -1 VP, the US at war; Over There only on a later turn', () => {
    expect(offered(cpPasses(position({ combined: 29 }, { ap: ['ap-54'] })), 'ap-54')).toBe(false);
    const s = cpPasses(position({ combined: 30 }, { ap: ['ap-54', 'ap-55'] }));
    const after = apply(s, event('ap-54'));
    expect([after.vp, after.atWar.us, after.combined]).toEqual([s.vp - 1, true, 32]);
    // Over There not the same turn (16.3.4), but on a later one.
    expect(offered({ ...after, active: 'ap' }, 'ap-55')).toBe(false);
    const later = cpPasses(position({ combined: 32, events: ['zimmermann_telegram'], atWar: { ...after.atWar } }, { ap: ['ap-55'] }));
    expect(offered(later, 'ap-55')).toBe(true);
    expect(apply(later, event('ap-55')).events).toContain('over_there');
  });

  it('14 Points (AP 40): after the Zimmermann Telegram; -1 VP, then the Central Powers may not offer peace', () => {
    expect(offered(cpPasses(position({}, { ap: ['ap-40'] })), 'ap-40')).toBe(false);
    const s = cpPasses(position({ events: ['zimmermann_telegram'], vp: 14 }, { ap: ['ap-40'] }));
    const after = apply(s, event('ap-40'));
    expect([after.vp, after.warStatus.ap, after.combined]).toEqual([13, 0, 0]);
    expect(legalChoices(after)).not.toContainEqual({ kind: 'offer-peace' });
    expect(legalChoices({ ...after, events: [] })).toContainEqual({ kind: 'offer-peace' });
  });

  it('H-L Take Command (CP 54): a lasting permission with war status 2', () => {
    const s = position({}, { cp: ['cp-54'] });
    const after = apply(s, event('cp-54'));
    expect([after.warStatus.cp, after.combined, after.vp]).toEqual([card('cp-54').warStatus, 2, 10]);
    expect(after.decks.cp.removed).toEqual(['cp-54']);
  });
});
