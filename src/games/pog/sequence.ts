// The turn sequence (6.0) as far as it is built: the mandated offensive phase (7.1), the action
// rounds (8.1) with the choice of how to play a card (9.1.3, 9.3.3, 9.4, 9.5.2.5, 9.5.3.1), the
// replacement points a card gives (9.4.1, 17.1.8) and peace terms (16.5). One predicate decides
// what is legal: `legalChoices` lists it and `apply` accepts exactly what it lists.
import { LIMITS, MANDATED_OFFENSIVES, PEACE_TERMS, SPACES, card, type Offensive, type RpKind, type Side } from './data';
import { eventBuilt, eventConditions, playEvent } from './events';
import { scenarioOf, type ActionRecord, type Neutral, type PlayKind, type PogState } from './state';

export type Choice =
  /** Both players roll for their mandated offensive (dice: [Allied, Central Powers]). */
  | { readonly kind: 'roll-mandated' }
  /** Play a card from hand one way. */
  | { readonly kind: 'play'; readonly card: string; readonly as: PlayKind }
  /** Offer peace terms as the action (16.5.1). */
  | { readonly kind: 'offer-peace' }
  /** Answer the other side's peace offer; a refusal makes the offering side roll (dice: [roll]). */
  | { readonly kind: 'answer-peace'; readonly accept: boolean };

/** The dice and card draws a choice needs, from outside the rules. */
export interface Chance {
  readonly dice?: readonly number[];
  readonly draws?: readonly string[];
}

/** Whether a way of playing a card has its whole effect built: RP always, an event when that
 *  event is built (events.ts) and its own conditions hold. `playModes` lists every way the general
 *  rules allow; `legalChoices` offers those that are also built. */
export function built(state: PogState, cardId: string, as: PlayKind): boolean {
  if (as === 'rp') return true;
  if (as === 'event') return eventBuilt(cardId) && eventConditions(state, cardId);
  return false;
}

const other = (side: Side): Side => (side === 'ap' ? 'cp' : 'ap');

/** The side that decides next, or null when nobody can (the game is over, or its next step is not
 *  built yet). */
export function toAct(state: PogState): Side | null {
  if (state.result !== null) return null;
  if (state.phase === 'mandated-offensives') return 'cp';
  if (state.phase === 'action') return state.peaceOffer === null ? state.active : other(state.peaceOffer);
  return null;
}

/** The nations whose replacement points cannot be recorded while neutral (9.4.1). */
const NEUTRAL_RP: Partial<Record<RpKind, Neutral>> = { it: 'it', bu: 'bu', tu: 'tu' };

/** The replacement points a card played for RP records (9.4.1, 17.1.8). */
export function rpGain(state: PogState, cardId: string): Partial<Record<RpKind, number>> {
  const c = card(cardId);
  const gain: Partial<Record<RpKind, number>> = {};
  for (const [kind, n] of Object.entries(c.rp) as [RpKind, number][]) {
    const neutral = NEUTRAL_RP[kind];
    if (neutral !== undefined && !state.atWar[neutral]) continue;
    gain[kind] = n;
  }
  if (c.side === 'ap' && state.events.includes('over_there')) gain.us = (gain.us ?? 0) + 1;
  return gain;
}

/** How a side may play one card of its hand under the general rules (9.1.3): OPS always; SR and RP
 *  not twice in a row within a turn (9.3.3, 9.4.3); Italy and Romania only as events while the
 *  Central Powers are at Total War and the Allies not (9.5.2.5); an event's general limits — no
 *  reinforcements in August 1914 (9.5.3.1), a neutral's entry only while it is neutral and once a
 *  turn for both sides (9.5.2.2), and a combat card's event only in a combat (9.5.4.1), never as the
 *  action. Each event's own conditions come with the event (events.ts). */
export function playModes(state: PogState, side: Side, cardId: string): PlayKind[] {
  if (!state.decks[side].hand.includes(cardId)) return [];
  const c = card(cardId);
  const modes: PlayKind[] = [];
  const previous = state.actions[side].at(-1)?.kind;
  const entryOnly = (cardId === 'ap-16' || cardId === 'ap-17') && state.commitment.cp === 'total' && state.commitment.ap !== 'total';
  if (!entryOnly) {
    modes.push('ops');
    if (previous !== 'sr') modes.push('sr');
    if (previous !== 'rp') modes.push('rp');
  }
  if (!c.combat && eventAllowed(state, c.event, c.reinforcements)) modes.push('event');
  return modes;
}

const ENTRY_EVENTS: Readonly<Record<string, Neutral>> = { italy_entry: 'it', romania_entry: 'ro', greece_entry: 'gr', bulgaria_entry: 'bu' };

function eventAllowed(state: PogState, event: string, reinforcements: readonly string[] | undefined): boolean {
  if (reinforcements !== undefined) return state.turn > 1;
  const entering = ENTRY_EVENTS[event];
  if (entering !== undefined) {
    const entryThisTurn = [...state.actions.ap, ...state.actions.cp].some(
      (a) => a.kind === 'event' && a.card !== undefined && card(a.card).event in ENTRY_EVENTS,
    );
    return !state.atWar[entering] && !entryThisTurn;
  }
  return true;
}

/** Whether a side may offer peace terms now (16.5.1; not in the introductory scenario, 5.3.3; only
 *  the Allies after the 14 Points). */
export function mayOfferPeace(state: PogState, side: Side): boolean {
  if (!scenarioOf(state).peaceTerms) return false;
  if (side === 'cp' && state.events.includes('fourteen_points')) return false;
  return side === 'cp' ? state.vp >= LIMITS.peaceCentralFrom : state.vp <= LIMITS.peaceAlliedUpTo;
}

/** Every legal choice of the side to act (see `toAct`). */
export function legalChoices(state: PogState): Choice[] {
  const side = toAct(state);
  if (side === null) return [];
  if (state.phase === 'mandated-offensives') return [{ kind: 'roll-mandated' }];
  if (state.peaceOffer !== null) {
    return [
      { kind: 'answer-peace', accept: true },
      { kind: 'answer-peace', accept: false },
    ];
  }
  const out: Choice[] = [];
  for (const id of state.decks[side].hand) {
    for (const as of playModes(state, side, id)) if (built(state, id, as)) out.push({ kind: 'play', card: id, as });
  }
  if (mayOfferPeace(state, side)) out.push({ kind: 'offer-peace' });
  return out;
}

const same = (a: Choice, b: Choice): boolean => JSON.stringify(a) === JSON.stringify(b);

function die(chance: Chance, index: number): number {
  const d = chance.dice?.[index];
  if (d === undefined || !Number.isInteger(d) || d < 1 || d > 6) throw new Error(`die ${index + 1} must be 1 to 6, not ${String(d)}`);
  return d;
}

/** The state after the side to act makes a legal choice, with the dice and draws it needs. */
export function apply(state: PogState, choice: Choice, chance: Chance = {}): PogState {
  if (!legalChoices(state).some((c) => same(c, choice))) throw new Error(`not a legal choice now: ${JSON.stringify(choice)}`);
  switch (choice.kind) {
    case 'roll-mandated':
      return { ...state, mandated: rollMandated(state, die(chance, 0), die(chance, 1)), phase: 'action', round: 1, active: 'cp' };
    case 'play': {
      const next = choice.as === 'rp' ? playForRp(state, state.active, choice.card) : playEvent(state, state.active, choice.card);
      return endAction(next, state.active, { kind: choice.as, card: choice.card });
    }
    case 'offer-peace':
      return { ...state, peaceOffer: state.active };
    case 'answer-peace':
      return answerPeace(state, choice.accept, chance);
  }
}

/** 7.1: each side's roll on its mandated offensive table, read with the rules' changes: a neutral
 *  nation means none (7.1.2); Austria-Hungary against Italy is plain Austria-Hungary while Italy is
 *  neutral or wholly held by the Central Powers (7.1.6); Hoffmann adds 1 to the Central Powers'
 *  roll (7.1.9); after H-L Take Command Germany means none (7.1.10), after the Bolshevik
 *  Revolution Russia means none (7.1.11). */
export function rollMandated(state: PogState, alliedRoll: number, centralRoll: number): Record<Side, Offensive> {
  const cpRoll = Math.min(7, centralRoll + (state.events.includes('hoffmann') ? 1 : 0));
  let ap = MANDATED_OFFENSIVES.ap[alliedRoll - 1] ?? null;
  let cp = MANDATED_OFFENSIVES.cp[cpRoll - 1] ?? null;
  const neutral = (n: Offensive) => n !== null && n !== 'ah-it' && n in state.atWar && !state.atWar[n as Neutral];
  if (cp === 'ah-it') {
    const italyHeld = SPACES.filter((s) => s.nation === 'it').every((s) => state.control[s.id] === 'cp');
    if (!state.atWar.it || italyHeld) cp = 'ah';
  }
  if (cp === 'ge' && state.events.includes('h_l_take_command')) cp = null;
  if (ap === 'ru' && state.events.includes('bolshevik_revolution')) ap = null;
  if (neutral(ap)) ap = null;
  if (neutral(cp)) cp = null;
  return { ap, cp };
}

/** 9.4: the card goes to the discard pile and its replacement points are recorded. */
function playForRp(state: PogState, side: Side, cardId: string): PogState {
  const deck = state.decks[side];
  const rp = { ...state.rp };
  for (const [kind, n] of Object.entries(rpGain(state, cardId)) as [RpKind, number][]) rp[kind] += n;
  return {
    ...state,
    rp,
    decks: { ...state.decks, [side]: { ...deck, hand: deck.hand.filter((id) => id !== cardId), discard: [...deck.discard, cardId] } },
  };
}

/** 16.5.2: accepted, the game ends in a draw; refused, the side that offered rolls. */
function answerPeace(state: PogState, accept: boolean, chance: Chance): PogState {
  const offered = state.peaceOffer!;
  const cleared = { ...state, peaceOffer: null };
  if (accept) return { ...cleared, phase: 'ended', result: { winner: 'draw', reason: 'peace-terms' } };
  const roll = die(chance, 0);
  const favour = roll <= PEACE_TERMS.forOnOrBelow || (roll === 3 && state.combined < PEACE_TERMS.forOnThreeBelowCombined);
  const step = favour ? 1 : roll === PEACE_TERMS.againstOn ? -1 : 0;
  const vp = state.vp + (offered === 'cp' ? step : -step);
  return endAction({ ...cleared, vp }, offered, { kind: 'peace' });
}

/** One side's action is done: record it and pass to the next (8.1.2, 8.1.5). */
function endAction(state: PogState, side: Side, record: ActionRecord): PogState {
  const actions = { ...state.actions, [side]: [...state.actions[side], record] };
  if (side === 'cp') return { ...state, actions, active: 'ap' };
  if (state.round < LIMITS.actionRounds) return { ...state, actions, active: 'cp', round: state.round + 1 };
  return { ...state, actions, phase: 'attrition' };
}
