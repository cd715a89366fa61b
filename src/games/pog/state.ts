// The state of a game of Paths of Glory, and a new game from a scenario and the opening deal.
// Plain data (JSON-safe): the same state gives the same bytes on every phone.
import {
  CARDS,
  LIMITS,
  SCENARIOS,
  SETUP,
  SPACES,
  UNITS,
  card,
  type Commitment,
  type Offensive,
  type Placement,
  type RpKind,
  type Scenario,
  type Side,
} from './data';

/** The phases of a turn (6.0), in order; 'ended' once the game is over. */
export type Phase = 'mandated-offensives' | 'action' | 'attrition' | 'siege' | 'war-status' | 'replacement' | 'draw' | 'ended';

/** The four ways to play a strategy card (9.1.3). */
export type PlayKind = 'ops' | 'sr' | 'rp' | 'event';

/** Where a unit is: a space id, a side's reserve box ('ap-reserve', 'cp-reserve'), its side's
 *  eliminated box ('ap-eliminated', 'cp-eliminated', from which it may be replaced), 'removed' (out
 *  of the game), or 'offboard' (not yet entered: neutral nations' units and reinforcements). */
export interface UnitState {
  readonly at: string;
  readonly reduced: boolean;
}

/** One side's strategy cards. The draw pile is kept sorted: which cards are drawn comes from outside
 *  (the draws), so its order is no secret of the state. */
export interface Deck {
  readonly draw: readonly string[];
  readonly hand: readonly string[];
  readonly discard: readonly string[];
  readonly removed: readonly string[];
}

/** One action of a side this turn (8.1.3): a card played one way, a peace offer, or automatic ops. */
export interface ActionRecord {
  readonly kind: PlayKind | 'peace' | 'auto-ops';
  readonly card?: string;
}

/** The nations that start neutral and enter the war later (9.5.2, 16.1.3.1, 16.3). */
export type Neutral = 'it' | 'bu' | 'ro' | 'gr' | 'tu' | 'us';

export interface Result {
  readonly winner: Side | 'draw';
  readonly reason: 'peace-terms' | 'automatic' | 'armistice' | 'scenario-end' | 'total-war';
}

export interface PogState {
  readonly scenario: Scenario['id'];
  readonly turn: number;
  readonly phase: Phase;
  /** The action round, 1 to 6 (8.1.1), during the action phase. */
  readonly round: number;
  /** The side whose action it is in the action phase. */
  readonly active: Side;
  readonly vp: number;
  /** Each player's war status and the combined war status (9.5.1.3, 16.2). */
  readonly warStatus: Readonly<Record<Side, number>>;
  readonly combined: number;
  readonly commitment: Readonly<Record<Side, Commitment>>;
  /** Replacement points recorded this turn (9.4), by kind. */
  readonly rp: Readonly<Record<RpKind, number>>;
  readonly atWar: Readonly<Record<Neutral, boolean>>;
  readonly units: Readonly<Record<string, UnitState>>;
  /** Trench level by space (absent: none). */
  readonly trenches: Readonly<Record<string, 1 | 2>>;
  /** Who controls each space. */
  readonly control: Readonly<Record<string, Side>>;
  readonly decks: Readonly<Record<Side, Deck>>;
  /** The event keys played so far whose effects or permissions last. */
  readonly events: readonly string[];
  /** This turn's mandated offensives (7.1), once rolled. */
  readonly mandated: Readonly<Record<Side, Offensive>>;
  /** This turn's actions of each side, in order. */
  readonly actions: Readonly<Record<Side, readonly ActionRecord[]>>;
  /** A peace offer waiting for the other side's answer (16.5): the side that offered. */
  readonly peaceOffer: Side | null;
  readonly result: Result | null;
}

export const RP_KINDS: readonly RpKind[] = ['br', 'fr', 'it', 'ru', 'us', 'ge', 'ah', 'tu', 'bu', 'allied'];

export function scenarioOf(state: Pick<PogState, 'scenario'>): Scenario {
  const found = SCENARIOS.find((s) => s.id === state.scenario);
  if (found === undefined) throw new Error(`no scenario ${state.scenario}`);
  return found;
}

export interface Opening {
  /** Whether the Central Powers start with Guns of August in hand (4.3.1). */
  readonly gunsOfAugust: boolean;
  /** The cards dealt from each side's shuffled mobilization cards (4.3): 7 each, or 6 for the
   *  Central Powers when they chose Guns of August. */
  readonly deal: Readonly<Record<Side, readonly string[]>>;
}

const mobilization = (side: Side): string[] => CARDS.filter((c) => c.side === side && c.commitment === 'mobilization').map((c) => c.id);

/** The state at the start of August 1914 (4.0) for a scenario, with the opening deal given. */
export function newGame(scenario: Scenario['id'], opening: Opening): PogState {
  scenarioOf({ scenario });
  const decks = {} as Record<Side, Deck>;
  for (const side of ['ap', 'cp'] as const) {
    const pile = mobilization(side);
    const dealt = opening.deal[side];
    const kept = side === 'cp' && opening.gunsOfAugust ? ['cp-1'] : [];
    const want = LIMITS.hand - kept.length;
    if (dealt.length !== want) throw new Error(`${side} is dealt ${want} cards, not ${dealt.length}`);
    if (new Set(dealt).size !== dealt.length) throw new Error(`${side}'s deal names a card twice`);
    for (const id of dealt) {
      if (!pile.includes(id) || kept.includes(id)) throw new Error(`${id} is not in ${side}'s shuffled mobilization cards`);
    }
    const hand = [...kept, ...dealt];
    decks[side] = { draw: pile.filter((id) => !hand.includes(id)).sort(byCard), hand: [...hand].sort(byCard), discard: [], removed: [] };
  }
  const { units, trenches } = place(Object.fromEntries(UNITS.map((u) => [u.id, { at: 'offboard', reduced: false }])), {}, SETUP);
  return {
    scenario,
    turn: 1,
    phase: 'mandated-offensives',
    round: 1,
    active: 'cp',
    vp: LIMITS.vpStart,
    warStatus: { ap: 0, cp: 0 },
    combined: 0,
    commitment: { ap: 'mobilization', cp: 'mobilization' },
    rp: Object.fromEntries(RP_KINDS.map((k) => [k, 0])) as Record<RpKind, number>,
    atWar: { it: false, bu: false, ro: false, gr: false, tu: false, us: false },
    units,
    trenches,
    control: Object.fromEntries(SPACES.map((s) => [s.id, s.side])),
    decks,
    events: [],
    mandated: { ap: null, cp: null },
    actions: { ap: [], cp: [] },
    peaceOffer: null,
    result: null,
  };
}

/** Units and trenches after placing a set-up's lines (4.2) on top of the given ones. */
export function place(
  units: Readonly<Record<string, UnitState>>,
  trenches: Readonly<Record<string, 1 | 2>>,
  placements: readonly Placement[],
): { units: Record<string, UnitState>; trenches: Record<string, 1 | 2> } {
  const u: Record<string, UnitState> = { ...units };
  const t: Record<string, 1 | 2> = { ...trenches };
  for (const p of placements) {
    for (const id of p.units ?? []) u[id] = { at: p.at, reduced: false };
    for (const id of p.reduced ?? []) u[id] = { at: p.at, reduced: true };
    if (p.trench) t[p.at] = p.trench;
  }
  return { units: u, trenches: t };
}

/** Cards in a stable order: Allied before Central, then by number. */
export function byCard(a: string, b: string): number {
  const ca = card(a);
  const cb = card(b);
  return ca.side === cb.side ? ca.number - cb.number : ca.side === 'ap' ? -1 : 1;
}
