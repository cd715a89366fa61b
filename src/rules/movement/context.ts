// The per-call working state of one movement adjudication. Units are numbered by their index in
// position.units; every per-unit fact lives in a flat array indexed by that number, so the
// resolver does no allocation and no string work in its hot loop.
import type { Loc, Order, OrderResult, ProvinceId, Reason, Unit } from '../types';
import type { Board } from './board';

/** What a unit effectively does once illegal orders have been turned into holds. */
export type Kind = 'hold' | 'move' | 'support' | 'convoy';

export interface Ctx {
  readonly board: Board;
  readonly units: readonly Unit[];
  readonly n: number;
  readonly prov: ProvinceId[];
  /** Unit index standing in each province. */
  readonly at: Map<ProvinceId, number>;
  /** Seas with a fleet in them, as bits (Board.seaBit): what convoy routes may pass through. */
  readonly fleetSeas: number;
  readonly kind: Kind[];
  /** The order that counts for the unit; none (a made-up hold) if unordered or in civil disorder. */
  readonly given: (Order | undefined)[];
  /** Why the given order was replaced by a hold (illegal, or a convoy move with no possible route). */
  readonly demoted: (Reason | undefined)[];

  // Moves
  readonly dest: ProvinceId[];
  readonly destLoc: Loc[];
  readonly byConvoy: Uint8Array;
  /** Fleets whose convoy orders match this army's move. */
  readonly convoyers: number[][];

  /** The unit a support or a convoy names (-1: none there). */
  readonly target: Int32Array;
  /** The support or convoy matches what the named unit does. */
  readonly matched: Uint8Array;

  // Supports
  /** Province the supported unit must move to; '' for a support to hold. */
  readonly supDest: ProvinceId[];
  /** Coast named by a support to a split-coast province ('' if none). */
  readonly supDestLoc: Loc[];
  /** Supports that count for each unit (matched, legal, consented when the 1914 rule is on). */
  readonly supports: number[][];

  /** Units ordered to move into each province. */
  readonly attackers: Map<ProvinceId, number[]>;

  // Resolver (states: see resolver.ts)
  readonly state: Uint8Array;
  readonly res: Uint8Array;
  readonly deps: number[];

  /** Results for orders that command no unit (no-such-unit, duplicates, wrong phase). */
  readonly extras: OrderResult[];
}

/** Shared empty list: most units get no support and no convoy, so their lists are never made. */
const NONE: number[] = [];

/** Adds unit v to unit u's list (supports or convoyers), making the list on first use. */
export function addTo(lists: number[][], u: number, v: number): void {
  const list = lists[u]!;
  if (list === NONE) lists[u] = [v];
  else list.push(v);
}

export function newCtx(board: Board, units: readonly Unit[]): Ctx {
  const n = units.length;
  const prov: ProvinceId[] = new Array<ProvinceId>(n);
  const at = new Map<ProvinceId, number>();
  let fleetSeas = 0;
  for (let i = 0; i < n; i++) {
    const unit = units[i]!;
    const loc = unit.loc;
    const slash = loc.indexOf('/');
    const p = slash < 0 ? loc : loc.slice(0, slash);
    prov[i] = p;
    at.set(p, i);
    if (unit.type === 'F') fleetSeas |= board.seaBit.get(p) ?? 0;
  }
  return {
    board,
    units,
    n,
    prov,
    at,
    fleetSeas,
    kind: new Array<Kind>(n).fill('hold'),
    given: new Array<Order | undefined>(n).fill(undefined),
    demoted: new Array<Reason | undefined>(n).fill(undefined),
    dest: new Array<ProvinceId>(n).fill(''),
    destLoc: new Array<Loc>(n).fill(''),
    byConvoy: new Uint8Array(n),
    convoyers: new Array<number[]>(n).fill(NONE),
    target: new Int32Array(n).fill(-1),
    matched: new Uint8Array(n),
    supDest: new Array<ProvinceId>(n).fill(''),
    supDestLoc: new Array<Loc>(n).fill(''),
    supports: new Array<number[]>(n).fill(NONE),
    attackers: new Map(),
    state: new Uint8Array(n),
    res: new Uint8Array(n),
    deps: [],
    extras: [],
  };
}
