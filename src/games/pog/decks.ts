// Strategy card piles between turns: the commitment level rising with the war status (16.1.3-4,
// segment E.4, with Turkey's entry, 16.1.3.1) and the draw phase (G). Pure building blocks for the
// phases after the action phase; `sequence.ts` does not reach them yet.
import { CARDS, COMMITMENT_AT, LIMITS, NEUTRAL_ENTRY, card, type Commitment, type Side } from './data';
import { byCard, place, scenarioOf, type Deck, type PogState } from './state';

const ORDER: readonly Commitment[] = ['mobilization', 'limited', 'total'];

/** The commitment level a war status calls for (16.1.3-4). */
export function commitmentFor(warStatus: number): Commitment {
  if (warStatus >= COMMITMENT_AT.total) return 'total';
  if (warStatus >= COMMITMENT_AT.limited) return 'limited';
  return 'mobilization';
}

/** Segment E.4: each side whose war status calls for a higher commitment reaches it (not on turn 1,
 *  16.1.2; never in the introductory scenario, 5.3.2). Its new card groups join its draw pile with
 *  the discards (16.1.3-4; the hand stays); the Central Powers reaching Limited War bring Turkey in
 *  (16.1.3.1). The cards a side chooses to discard first (combat cards, 9.5.4.6) are given. */
export function raiseCommitments(state: PogState, discards: Readonly<Partial<Record<Side, readonly string[]>>> = {}): PogState {
  if (state.turn === 1 || !scenarioOf(state).commitmentRises) return state;
  let next = state;
  for (const side of ['ap', 'cp'] as const) {
    const from = ORDER.indexOf(next.commitment[side]);
    const to = ORDER.indexOf(commitmentFor(next.warStatus[side]));
    if (to <= from) continue;
    const added = CARDS.filter((c) => c.side === side && ORDER.indexOf(c.commitment) > from && ORDER.indexOf(c.commitment) <= to).map((c) => c.id);
    const deck = discardCombatCards(next.decks[side], discards[side] ?? []);
    next = {
      ...next,
      commitment: { ...next.commitment, [side]: ORDER[to]! },
      decks: { ...next.decks, [side]: { ...deck, draw: [...deck.draw, ...deck.discard, ...added].sort(byCard), discard: [] } },
    };
    if (side === 'cp' && from === 0 && !next.atWar.tu) next = turkeyEnters(next);
  }
  return next;
}

/** 16.1.3.1: Turkey enters the war; its units go where the set-up says (4.2.2). */
function turkeyEnters(state: PogState): PogState {
  return { ...state, atWar: { ...state.atWar, tu: true }, ...place(state.units, state.trenches, NEUTRAL_ENTRY.tu.placements) };
}

/** 9.5.4.6: combat cards of the hand moved to the discard pile (the only cards that may be). */
function discardCombatCards(deck: Deck, ids: readonly string[]): Deck {
  for (const id of ids) {
    if (!deck.hand.includes(id)) throw new Error(`${id} is not in the hand`);
    if (!card(id).combat) throw new Error(`${id} is not a combat card: only combat cards may be discarded`);
  }
  if (new Set(ids).size !== ids.length) throw new Error('a card is discarded twice');
  return { ...deck, hand: deck.hand.filter((id) => !ids.includes(id)), discard: [...deck.discard, ...ids] };
}

/** The draw phase (G) for one side: the combat cards it chooses are discarded, then it draws up to
 *  a full hand; when the draw pile runs out the discards become the draw pile; with too few cards
 *  it takes them all. `draws` are the cards drawn, in order, chosen by chance outside the rules:
 *  each must be in the draw pile when drawn, and there must be exactly as many as the rules draw. */
export function drawCards(state: PogState, side: Side, discards: readonly string[], draws: readonly string[]): PogState {
  let deck = discardCombatCards(state.decks[side], discards);
  const want = Math.max(0, LIMITS.hand - deck.hand.length);
  const available = deck.draw.length + deck.discard.length;
  if (draws.length !== Math.min(want, available)) throw new Error(`${side} draws ${Math.min(want, available)} cards, not ${draws.length}`);
  for (const id of draws) {
    if (deck.draw.length === 0) deck = { ...deck, draw: [...deck.discard].sort(byCard), discard: [] };
    if (!deck.draw.includes(id)) throw new Error(`${id} is not in ${side}'s draw pile`);
    deck = { ...deck, draw: deck.draw.filter((c) => c !== id), hand: [...deck.hand, id].sort(byCard) };
  }
  return { ...state, decks: { ...state.decks, [side]: deck } };
}
