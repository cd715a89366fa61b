import { describe, expect, it } from 'vitest';
import { CARDS, NEUTRAL_ENTRY, card } from '../../../src/games/pog/data';
import { commitmentFor, drawCards, raiseCommitments } from '../../../src/games/pog/decks';
import { newGame, type Deck, type PogState } from '../../../src/games/pog/state';

const ids = (side: 'ap' | 'cp', group?: string) => CARDS.filter((c) => c.side === side && (group === undefined || c.commitment === group)).map((c) => c.id);
const sorted = (list: readonly string[]) => [...list].sort();

function game(scenario: PogState['scenario'] = 'campaign', change: Partial<PogState> = {}): PogState {
  const s = newGame(scenario, { gunsOfAugust: true, deal: { ap: ids('ap', 'mobilization').slice(0, 7), cp: ids('cp', 'mobilization').slice(1, 7) } });
  return { ...s, ...change };
}

const withDeck = (s: PogState, side: 'ap' | 'cp', deck: Partial<Deck>): PogState => ({ ...s, decks: { ...s.decks, [side]: { ...s.decks[side], ...deck } } });
const all = (d: Deck) => sorted([...d.hand, ...d.draw, ...d.discard, ...d.removed]);

describe('the commitment level (16.1)', () => {
  it('rises at war status 4 and 11', () => {
    expect([0, 3, 4, 10, 11, 30].map(commitmentFor)).toEqual(['mobilization', 'mobilization', 'limited', 'limited', 'total', 'total']);
  });

  it('September 1914 of the extended example: the Central Powers at 4 go to Limited War, Turkey enters, the Allies at 1 stay', () => {
    let s = game('campaign', { turn: 2, warStatus: { ap: 1, cp: 4 }, combined: 5 });
    s = withDeck(s, 'cp', {
      hand: ['cp-4'],
      discard: ['cp-2', 'cp-3'],
      removed: ['cp-1', 'cp-9', 'cp-11'],
      draw: sorted(ids('cp', 'mobilization').filter((id) => !['cp-4', 'cp-2', 'cp-3', 'cp-1', 'cp-9', 'cp-11'].includes(id))),
    });
    const after = raiseCommitments(s);
    expect(after.commitment).toEqual({ ap: 'mobilization', cp: 'limited' });
    expect(after.decks.cp.hand).toEqual(['cp-4']);
    expect(after.decks.cp.discard).toEqual([]);
    expect(sorted(after.decks.cp.draw)).toEqual(
      sorted([...ids('cp', 'mobilization').filter((id) => !['cp-4', 'cp-1', 'cp-9', 'cp-11'].includes(id)), ...ids('cp', 'limited')]),
    );
    expect(all(after.decks.cp)).toEqual(sorted([...ids('cp', 'mobilization'), ...ids('cp', 'limited')]));
    expect(after.decks.ap).toEqual(s.decks.ap);
    // 16.1.3.1: Turkey's fourteen corps and three trenches.
    expect(after.atWar.tu).toBe(true);
    for (const p of NEUTRAL_ENTRY.tu.placements) for (const id of p.units ?? []) expect(after.units[id]).toEqual({ at: p.at, reduced: false });
    expect([after.trenches['giresun'], after.trenches['baghdad'], after.trenches['gaza']]).toEqual([1, 1, 1]);
    expect(Object.values(after.units).filter((u) => u.at !== 'offboard').length - Object.values(s.units).filter((u) => u.at !== 'offboard').length).toBe(14);
  });

  it('is not checked on turn 1 nor in the introductory scenario', () => {
    const high = { warStatus: { ap: 12, cp: 12 } };
    expect(raiseCommitments(game('campaign', { turn: 1, ...high }))).toEqual(game('campaign', { turn: 1, ...high }));
    expect(raiseCommitments(game('introductory', { turn: 2, ...high })).commitment).toEqual({ ap: 'mobilization', cp: 'mobilization' });
  });

  it('from Mobilization straight to Total War adds both groups; Turkey enters once', () => {
    const after = raiseCommitments(game('campaign', { turn: 3, warStatus: { ap: 11, cp: 0 } }));
    expect(after.commitment.ap).toBe('total');
    expect(all(after.decks.ap)).toEqual(sorted(ids('ap')));
    expect(after.atWar.tu).toBe(false);
    const moved = {
      ...game('campaign', { turn: 5, warStatus: { ap: 0, cp: 11 }, commitment: { ap: 'mobilization', cp: 'limited' }, atWar: { ...game().atWar, tu: true } }),
    };
    const turk = { ...moved, units: { ...moved.units, 'tu-corps-1': { at: 'sofia', reduced: true } } };
    const total = raiseCommitments(turk);
    expect(total.commitment.cp).toBe('total');
    expect(total.units['tu-corps-1']).toEqual({ at: 'sofia', reduced: true });
  });

  it('lets combat cards be discarded before the new draw pile is made (9.5.4.6), and no other card', () => {
    const s = withDeck(game('campaign', { turn: 2, warStatus: { ap: 0, cp: 4 } }), 'cp', { hand: ['cp-2', 'cp-4', 'cp-5'] });
    const after = raiseCommitments(s, { cp: ['cp-2', 'cp-4'] });
    expect(after.decks.cp.hand).toEqual(['cp-5']);
    expect(after.decks.cp.draw).toContain('cp-2');
    expect(() => raiseCommitments(s, { cp: ['cp-5'] })).toThrow();
    expect(() => raiseCommitments(s, { cp: ['cp-3'] })).toThrow();
  });
});

describe('the draw phase (G)', () => {
  it('fills the hand to seven: the Allies draw seven from an empty hand, the Central Powers six with one card kept', () => {
    let s = withDeck(game(), 'ap', { hand: [], draw: ids('ap', 'mobilization').slice(0, 10), discard: ids('ap', 'mobilization').slice(10) });
    s = withDeck(s, 'cp', { hand: ['cp-5'], draw: ids('cp', 'mobilization').slice(5), discard: ['cp-2', 'cp-3', 'cp-4'], removed: ['cp-1'] });
    const ap = drawCards(s, 'ap', [], ['ap-3', 'ap-1', 'ap-2', 'ap-4', 'ap-5', 'ap-6', 'ap-7']);
    expect(ap.decks.ap.hand).toEqual(['ap-1', 'ap-2', 'ap-3', 'ap-4', 'ap-5', 'ap-6', 'ap-7']);
    expect(ap.decks.ap.draw).toEqual(['ap-8', 'ap-9', 'ap-10']);
    const cp = drawCards(s, 'cp', [], ['cp-6', 'cp-7', 'cp-8', 'cp-9', 'cp-10', 'cp-11']);
    expect(cp.decks.cp.hand).toHaveLength(7);
    expect(all(cp.decks.cp)).toEqual(all(s.decks.cp));
  });

  it('makes the discards the draw pile when it runs out, and takes all when there are too few', () => {
    const s = withDeck(game(), 'ap', { hand: ['ap-1', 'ap-2', 'ap-3'], draw: ['ap-4', 'ap-5'], discard: ['ap-6', 'ap-7', 'ap-8'], removed: [] });
    const after = drawCards(s, 'ap', [], ['ap-5', 'ap-4', 'ap-8', 'ap-6']);
    expect(after.decks.ap.hand).toEqual(['ap-1', 'ap-2', 'ap-3', 'ap-4', 'ap-5', 'ap-6', 'ap-8']);
    expect([after.decks.ap.draw, after.decks.ap.discard]).toEqual([['ap-7'], []]);
    // A discard cannot be drawn while the draw pile still has cards.
    expect(() => drawCards(s, 'ap', [], ['ap-6', 'ap-4', 'ap-5', 'ap-8'])).toThrow();
    const few = withDeck(s, 'ap', { hand: [], draw: ['ap-4'], discard: ['ap-5'] });
    expect(drawCards(few, 'ap', [], ['ap-4', 'ap-5']).decks.ap.hand).toEqual(['ap-4', 'ap-5']);
    expect(() => drawCards(few, 'ap', [], ['ap-4'])).toThrow();
  });

  it('takes combat cards out of the hand first when the player chooses, and refuses wrong draws', () => {
    const s = withDeck(game(), 'ap', { hand: ['ap-4', 'ap-5', 'ap-6', 'ap-7', 'ap-1', 'ap-2', 'ap-3'], draw: ['ap-8', 'ap-9', 'ap-10'], discard: [] });
    expect(drawCards(s, 'ap', [], []).decks.ap).toEqual(s.decks.ap);
    const after = drawCards(s, 'ap', ['ap-4', 'ap-6'], ['ap-9', 'ap-10']);
    expect(after.decks.ap.discard).toEqual(['ap-4', 'ap-6']);
    expect(after.decks.ap.hand).toHaveLength(7);
    expect(card('ap-1').combat).toBeUndefined();
    expect(() => drawCards(s, 'ap', ['ap-1'], ['ap-9'])).toThrow();
    expect(() => drawCards(s, 'ap', ['ap-4'], ['ap-9', 'ap-10'])).toThrow();
    expect(() => drawCards(s, 'ap', ['ap-4'], ['ap-11'])).toThrow();
    expect(() => drawCards(s, 'ap', ['ap-4', 'ap-4'], ['ap-9', 'ap-10'])).toThrow();
  });
});
