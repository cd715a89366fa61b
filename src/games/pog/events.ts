// Strategy card events (9.5) whose whole effect is built: each with its own conditions (the card's
// and the seed's changes) and its effect. The war status a played event adds, and where the card
// goes after it, are the same for every event (`playEvent`).
import { LIMITS, card, type Side } from './data';
import type { PogState } from './state';

interface EventRule {
  /** The event's own conditions, beyond the general ones of `playModes`. */
  readonly allowed: (state: PogState) => boolean;
  /** What the event does besides the war status and the card's own fate. */
  readonly effect: (state: PogState) => PogState;
}

const played = (state: PogState, event: string): boolean => state.events.includes(event);
const vp =
  (n: number) =>
  (state: PogState): PogState => ({ ...state, vp: state.vp + n });
const nothing = (state: PogState): PogState => state;
const playedThisTurn = (state: PogState, cardId: string): boolean =>
  [...state.actions.ap, ...state.actions.cp].some((a) => a.kind === 'event' && a.card === cardId);

export const EVENTS: Readonly<Record<string, EventRule>> = {
  // AP 13: after Guns of August, while the Allies are still at Mobilization (card changes); -1 VP.
  rape_of_belgium: { allowed: (s) => played(s, 'guns_of_august') && s.commitment.ap === 'mobilization', effect: vp(-1) },
  // AP 26: after Blockade and before the Zimmermann Telegram; -1 VP.
  lusitania: { allowed: (s) => played(s, 'blockade') && !played(s, 'zimmermann_telegram'), effect: vp(-1) },
  // AP 28: only a permission (Royal Tank Corps).
  landships: { allowed: () => true, effect: nothing },
  // AP 54: once the combined war status reached 30 (16.3.2); -1 VP and the US at war (16.3.3).
  zimmermann_telegram: {
    allowed: (s) => s.combined >= LIMITS.zimmermann,
    effect: (s) => ({ ...vp(-1)(s), atWar: { ...s.atWar, us: true } }),
  },
  // AP 55: on a turn after the Zimmermann Telegram (16.3.4); permits US reinforcements and US RP.
  over_there: { allowed: (s) => played(s, 'zimmermann_telegram') && !playedThisTurn(s, 'ap-54'), effect: nothing },
  // AP 40: after the Zimmermann Telegram (16.3.5); -1 VP; from now on only the Allies offer peace.
  fourteen_points: { allowed: (s) => played(s, 'zimmermann_telegram'), effect: vp(-1) },
  // CP 9: not once the Central Powers are at Total War; +1 VP.
  reichstag_truce: { allowed: (s) => s.commitment.cp !== 'total', effect: vp(1) },
  // CP 54: only permissions (Michael, Blucher, Peace Offensive, Hoffmann, U-Boats; no Place of Execution).
  h_l_take_command: { allowed: () => true, effect: nothing },
};

/** Whether a card's event is built here. */
export const eventBuilt = (cardId: string): boolean => card(cardId).event in EVENTS;

/** Whether a built event's own conditions hold. */
export function eventConditions(state: PogState, cardId: string): boolean {
  const rule = EVENTS[card(cardId).event];
  return rule !== undefined && rule.allowed(state);
}

/** 9.5.1: play a card's event: its war status to the player (until Total War, 16.1.6) and to the
 *  combined war status (9.5.1.3), its effect, then the card out of the game if it has the asterisk
 *  (9.5.1.2) or to the discard pile. */
export function playEvent(state: PogState, side: Side, cardId: string): PogState {
  const c = card(cardId);
  const rule = EVENTS[c.event];
  if (rule === undefined) throw new Error(`the event of ${cardId} is not built`);
  const ws = c.warStatus ?? 0;
  const deck = state.decks[side];
  const hand = deck.hand.filter((id) => id !== cardId);
  const next: PogState = {
    ...state,
    warStatus: { ...state.warStatus, [side]: state.warStatus[side] + (state.commitment[side] === 'total' ? 0 : ws) },
    combined: state.combined + ws,
    events: [...state.events, c.event],
    decks: {
      ...state.decks,
      [side]: c.removed ? { ...deck, hand, removed: [...deck.removed, cardId] } : { ...deck, hand, discard: [...deck.discard, cardId] },
    },
  };
  return rule.effect(next);
}
