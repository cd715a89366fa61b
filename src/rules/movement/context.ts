// The per-call working state of one movement adjudication. Units are numbered by their index in
// position.units; every per-unit fact lives in a flat array indexed by that number, so the
// resolver does no allocation and no string work in its hot loop.
import type { Loc, Order, OrderResult, ProvinceId, Reason, Unit } from '../types';
import type { Board } from './board';

/** What a unit effectively does once illegal orders have been turned into holds. */
export const HOLD = 0;
export const MOVE = 1;
export const SUPPORT = 2;
export const CONVOY = 3;

/** Resolver states (Kruijswijk's guess-and-check). */
export const UNRESOLVED = 0;
export const GUESSING = 1;
export const RESOLVED = 2;

export interface Ctx {
  readonly board: Board;
  readonly units: readonly Unit[];
  readonly n: number;
  readonly prov: ProvinceId[];
  /** Unit index standing in each province. */
  readonly at: Map<ProvinceId, number>;
  readonly kind: Uint8Array;
  /** The order that counts for the unit, if any. */
  readonly given: (Order | undefined)[];
  /** Why the given order was replaced by a hold (illegal, or a convoy move with no possible route). */
  readonly demoted: (Reason | undefined)[];
  /** No order, or the power is in civil disorder: a made-up hold. */
  readonly unordered: Uint8Array;

  // Moves
  readonly dest: ProvinceId[];
  readonly destLoc: Loc[];
  readonly byConvoy: Uint8Array;
  /** Fleets whose convoy orders match this army's move. */
  readonly convoyers: number[][];

  // Supports
  readonly supTarget: Int32Array;
  /** Province the supported unit must move to; '' for a support to hold. */
  readonly supDest: ProvinceId[];
  /** Coast named by a support to a split-coast province ('' if none). */
  readonly supDestLoc: Loc[];
  readonly supMatched: Uint8Array;
  /** Supports that count for each unit (matched, legal, consented when the 1914 rule is on). */
  readonly supports: number[][];

  // Convoys
  readonly cvArmy: Int32Array;
  readonly cvMatched: Uint8Array;

  /** Units ordered to move into each province. */
  readonly attackers: Map<ProvinceId, number[]>;

  // Resolver
  readonly state: Uint8Array;
  readonly res: Uint8Array;
  readonly deps: number[];

  /** Results for orders that command no unit (no-such-unit, duplicates, wrong phase). */
  readonly extras: OrderResult[];
}

export function newCtx(board: Board, units: readonly Unit[]): Ctx {
  const n = units.length;
  const prov: ProvinceId[] = new Array<ProvinceId>(n);
  const at = new Map<ProvinceId, number>();
  for (let i = 0; i < n; i++) {
    const loc = units[i]!.loc;
    const slash = loc.indexOf('/');
    const p = slash < 0 ? loc : loc.slice(0, slash);
    prov[i] = p;
    at.set(p, i);
  }
  const lists = (): number[][] => {
    const out: number[][] = new Array<number[]>(n);
    for (let i = 0; i < n; i++) out[i] = [];
    return out;
  };
  return {
    board,
    units,
    n,
    prov,
    at,
    kind: new Uint8Array(n),
    given: new Array<Order | undefined>(n).fill(undefined),
    demoted: new Array<Reason | undefined>(n).fill(undefined),
    unordered: new Uint8Array(n),
    dest: new Array<ProvinceId>(n).fill(''),
    destLoc: new Array<Loc>(n).fill(''),
    byConvoy: new Uint8Array(n),
    convoyers: lists(),
    supTarget: new Int32Array(n).fill(-1),
    supDest: new Array<ProvinceId>(n).fill(''),
    supDestLoc: new Array<Loc>(n).fill(''),
    supMatched: new Uint8Array(n),
    supports: lists(),
    cvArmy: new Int32Array(n).fill(-1),
    cvMatched: new Uint8Array(n),
    attackers: new Map(),
    state: new Uint8Array(n),
    res: new Uint8Array(n),
    deps: [],
    extras: [],
  };
}
