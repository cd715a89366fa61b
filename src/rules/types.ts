// The vocabulary of the rules engine. Everything here is plain data (JSON-serialisable),
// so positions, orders and results can be hashed, stored, sent and replayed unchanged.

/** The seven Great Powers, by lower-case English name (also the JSON keys of the CLI). */
export type Power = 'austria' | 'england' | 'france' | 'germany' | 'italy' | 'russia' | 'turkey';
export const POWERS: readonly Power[] = ['austria', 'england', 'france', 'germany', 'italy', 'russia', 'turkey'];

/** Lower-case three-letter English province id: 'par', 'stp', 'mao', 'nth'. */
export type ProvinceId = string;
/** A coast of a split-coast province. */
export type Coast = 'nc' | 'sc' | 'ec';
/** A place a unit can stand: a province id, or 'province/coast' for fleets on split coasts ('stp/sc'). */
export type Loc = string;

export type UnitType = 'A' | 'F';
export interface Unit {
  readonly type: UnitType;
  readonly power: Power;
  readonly loc: Loc;
}

export type ProvinceKind = 'land' | 'sea' | 'coast' | 'impassable';

export interface Province {
  readonly id: ProvinceId;
  readonly kind: ProvinceKind;
  readonly supplyCentre: boolean;
  /** The power whose home centre this is, if any. */
  readonly home?: Power;
  /** Coasts of a split-coast province (bul: ec/sc, spa: nc/sc, stp: nc/sc). */
  readonly coasts?: readonly Coast[];
  readonly name: { readonly en: string; readonly es: string };
  /** Abbreviations as the rulebooks (es) and the usual English tables (en) write them. */
  readonly abbr: { readonly en: readonly string[]; readonly es: readonly string[] };
  /** Other spellings seen in the rulebooks ('Edinburgo', 'Vienna', 'Tunez'); matched like names. */
  readonly aliases?: readonly string[];
}

/** The board as data. Variants may derive one (e.g. Italy impassable in a two-player game). */
export interface GameMap {
  readonly provinces: Readonly<Record<ProvinceId, Province>>;
  /** Army adjacency between provinces (symmetric). */
  readonly armyEdges: Readonly<Record<ProvinceId, readonly ProvinceId[]>>;
  /** Fleet adjacency between locations, coast-specific (symmetric). */
  readonly fleetEdges: Readonly<Record<Loc, readonly Loc[]>>;
}

export type Season = 'spring' | 'fall' | 'winter';
export type PhaseKind = 'movement' | 'retreat' | 'adjustment';
export interface Phase {
  readonly year: number;
  readonly season: Season;
  readonly kind: PhaseKind;
}

/** A unit dislodged in the movement phase, waiting for its retreat order. */
export interface Dislodged {
  readonly unit: Unit;
  /** Province the attack came from (no retreat there). */
  readonly attackerFrom: ProvinceId;
  /** Where it may retreat: empty means it will be disbanded. */
  readonly retreats: readonly Loc[];
}

export interface Position {
  readonly phase: Phase;
  /** Sorted by loc. */
  readonly units: readonly Unit[];
  /** Owner of every owned supply centre (unowned centres are absent). */
  readonly centres: Readonly<Partial<Record<ProvinceId, Power>>>;
  /** Only in a retreat phase. */
  readonly dislodged: readonly Dislodged[];
}

/** How an order names a unit: type (may be wrong — the engine checks) and where it stands. */
export interface UnitRef {
  readonly type: UnitType;
  readonly loc: Loc;
}

export type Order =
  | { readonly kind: 'hold'; readonly power: Power; readonly unit: UnitRef }
  | { readonly kind: 'move'; readonly power: Power; readonly unit: UnitRef; readonly to: Loc; readonly viaConvoy?: boolean }
  /** A support may name a coast ('spa/nc'): it then matches only a fleet going to that coast (DATC 6.B.9). */
  | { readonly kind: 'support'; readonly power: Power; readonly unit: UnitRef; readonly supported: UnitRef; readonly to?: Loc }
  | { readonly kind: 'convoy'; readonly power: Power; readonly unit: UnitRef; readonly army: ProvinceId; readonly to: ProvinceId }
  | { readonly kind: 'retreat'; readonly power: Power; readonly unit: UnitRef; readonly to: Loc }
  | { readonly kind: 'disband'; readonly power: Power; readonly unit: UnitRef }
  | { readonly kind: 'build'; readonly power: Power; readonly unit: UnitRef }
  | { readonly kind: 'remove'; readonly power: Power; readonly unit: UnitRef }
  | { readonly kind: 'waive'; readonly power: Power };

export type OrderKind = Order['kind'];

/** Why an order is illegal (it then counts as a hold, or is ignored outside movement). */
export type IllegalReason =
  | 'no-such-unit' // no unit of that power there
  | 'wrong-unit-type'
  | 'not-adjacent'
  | 'army-to-sea'
  | 'fleet-to-land'
  | 'move-to-self'
  | 'coast-required' // fleet move to a split-coast province with two reachable coasts
  | 'support-self'
  | 'support-unreachable' // supporting into a province the supporter cannot move to
  | 'convoy-by-non-fleet'
  | 'convoy-from-land' // a fleet on a coast cannot convoy
  | 'convoy-non-army'
  | 'fleet-cannot-be-convoyed'
  | 'wrong-phase'
  | 'retreat-not-allowed' // retreat target not among the legal retreats
  | 'not-dislodged'
  | 'not-home-centre'
  | 'centre-not-owned'
  | 'centre-occupied'
  | 'no-build-allowed' // the power has no builds left
  | 'no-removal-needed'
  | 'inland-fleet'
  | 'duplicate-order'; // a second order for the same unit (the first one counts)

export type Reason =
  | { readonly kind: 'illegal'; readonly why: IllegalReason }
  | { readonly kind: 'bounced'; readonly with: readonly Loc[] } // locations of the units it bounced with
  | { readonly kind: 'beaten'; readonly by: Loc } // attack on a province lost to a stronger attack/defence
  | { readonly kind: 'cut'; readonly by: Loc } // support cut by the unit at `by`
  | { readonly kind: 'dislodged'; readonly by: Loc } // the unit was dislodged by the unit that came from `by`
  | { readonly kind: 'no-convoy-route' }
  | { readonly kind: 'convoy-disrupted'; readonly by: Loc }
  | { readonly kind: 'support-not-matched' } // the supported unit did not do what the support said
  | { readonly kind: 'no-order' } // civil disorder / missing order: held in place
  | { readonly kind: 'void' }; // e.g. convoy of an army that did not go

export interface OrderResult {
  readonly order: Order;
  readonly success: boolean;
  readonly reason?: Reason;
}

export interface Adjudication {
  /** The position the orders were given in. */
  readonly before: Position;
  /** One result per unit (orders for non-existent units also appear, marked illegal). */
  readonly results: readonly OrderResult[];
  /** Units dislodged in this phase (movement only). */
  readonly dislodged: readonly Dislodged[];
  /** Provinces left empty by a standoff: nobody may retreat there. */
  readonly contested: readonly ProvinceId[];
  /** The position after this phase, already advanced to the next phase that needs orders. */
  readonly next: Position;
}

/** Rule switches. The standard game is the default; variants (issue 5) flip them. */
export interface RuleOptions {
  /** Supply centres needed to win outright. */
  readonly victoryCentres: number;
  /** "1914" rules: a dislodged unit is destroyed, there is no retreat phase. */
  readonly destroyDislodged: boolean;
  /** "1914" rules: a support for another power's unit counts only if that power's orders name it too. */
  readonly supportNeedsConsent: boolean;
}

export const STANDARD_RULES: RuleOptions = { victoryCentres: 18, destroyDislodged: false, supportNeedsConsent: false };

export interface AdjudicateOptions {
  /** Defaults to the standard map. */
  readonly map?: GameMap;
  readonly rules?: Partial<RuleOptions>;
  /** Powers in civil disorder this phase: their units hold and do not support each other;
   *  in adjustments their removals follow the rulebook's distance rule and builds are waived. */
  readonly civilDisorder?: readonly Power[];
}
