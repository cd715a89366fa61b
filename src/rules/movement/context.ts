// The per-call working state of one movement adjudication. Units are numbered by their index in
// position.units and provinces and coasts by their place number (board.ts); every fact lives in a
// flat array indexed by those numbers, so the resolver does no allocation and no string work.
// Lists (the units moving into a province, the supports and convoys of a unit) are linked
// through `next` arrays: a unit supports, convoys or attacks at most one thing.
import type { Order, OrderResult, Power, Reason, Unit } from '../types';
import { type Board, placeIn } from './board';

/** What a unit effectively does once illegal orders have been turned into holds. */
export const HOLD = 0;
export const MOVE = 1;
export const SUPPORT = 2;
export const CONVOY = 3;

/**
 * The working state. One is kept per board and reused from call to call (reset() clears what a
 * call reads before writing), because allocating some twenty small arrays per phase cost more
 * than adjudicating it. Adjudication is synchronous and never re-entered, so reuse is invisible:
 * no array of it ever reaches a result. The legal-order list (legal.ts) sets it up the same way to
 * ask legality.ts about a position, and adjudicates nothing in it.
 */
export class Ctx {
  units: readonly Unit[] = [];
  n = 0;
  /** Seas with a fleet in them, as bits (Board.seaBit): what convoy routes may pass through. */
  fleetSeas = 0;
  /** Power of each unit. */
  readonly power: Power[] = [];
  /** 1 for fleets. */
  readonly fleet: Uint8Array;
  /** Place each unit stands on (a coast for a fleet on a split coast), and its province. */
  readonly place: Int32Array;
  readonly prov: Int32Array;
  /** Unit standing in each province, or -1. */
  readonly at: Int32Array;
  /** HOLD, MOVE, SUPPORT or CONVOY. */
  readonly kind: Uint8Array;
  /** The order that counts for the unit; none (a made-up hold) if unordered or in civil disorder. */
  readonly given: (Order | undefined)[] = [];
  /** Why the given order was replaced by a hold (illegal, or a convoy move with no possible route). */
  readonly demoted: (Reason | undefined)[] = [];

  // Moves (and, for a convoy, the province it carries to)
  /** Province and place moved to. */
  readonly dest: Int32Array;
  readonly destPlace: Int32Array;
  readonly byConvoy: Uint8Array;
  /** Units moving into each province: the first, then `nextAttacker` (-1 ends a list). */
  readonly firstAttacker: Int32Array;
  readonly nextAttacker: Int32Array;
  /** Fleets whose convoy orders match each army's move: the first, then `nextConvoyer`. */
  readonly firstConvoyer: Int32Array;
  readonly nextConvoyer: Int32Array;

  /** The unit a support or a convoy names (-1: none there). */
  readonly target: Int32Array;
  /** The support or convoy matches what the named unit does. */
  readonly matched: Uint8Array;

  // Supports
  /** Province the supported unit must move to; -1 for a support to hold. */
  readonly supDest: Int32Array;
  /** Place named by a support to a fleet moving to a split-coast province; -1 if none. */
  readonly supDestPlace: Int32Array;
  /** Supports that count for each unit (matched, legal, consented when the 1914 rule is on). */
  readonly firstSupport: Int32Array;
  readonly nextSupport: Int32Array;

  // Resolver (states: see resolver.ts)
  readonly state: Uint8Array;
  readonly res: Uint8Array;
  readonly deps: number[] = [];

  // After resolution (results.ts)
  /** 1 for units whose move succeeded. */
  readonly moved: Uint8Array;
  /** The unit that dislodged each unit, or -1. */
  readonly dislodger: Int32Array;

  /** Results for orders that command no unit (no-such-unit, duplicates, wrong phase). */
  extras: OrderResult[] = [];

  constructor(
    readonly board: Board,
    readonly capacity: number,
  ) {
    const c = capacity;
    this.fleet = new Uint8Array(c);
    this.place = new Int32Array(c);
    this.prov = new Int32Array(c);
    this.at = new Int32Array(board.provinces);
    this.kind = new Uint8Array(c);
    this.dest = new Int32Array(c);
    this.destPlace = new Int32Array(c);
    this.byConvoy = new Uint8Array(c);
    this.firstAttacker = new Int32Array(board.provinces);
    this.nextAttacker = new Int32Array(c);
    this.firstConvoyer = new Int32Array(c);
    this.nextConvoyer = new Int32Array(c);
    this.target = new Int32Array(c);
    this.matched = new Uint8Array(c);
    this.supDest = new Int32Array(c);
    this.supDestPlace = new Int32Array(c);
    this.firstSupport = new Int32Array(c);
    this.nextSupport = new Int32Array(c);
    this.state = new Uint8Array(c);
    this.res = new Uint8Array(c);
    this.moved = new Uint8Array(c);
    this.dislodger = new Int32Array(c);
  }

  /** Sets up for a new position: every per-unit fact cleared, the units placed. */
  reset(units: readonly Unit[]): void {
    const board = this.board;
    const n = units.length;
    this.units = units;
    this.n = n;
    // Only what may be read before it is written: dest, destPlace, byConvoy, target, supDest,
    // supDestPlace and the `next` links are always set by the order that makes them meaningful.
    this.at.fill(-1);
    this.firstAttacker.fill(-1);
    this.kind.fill(HOLD, 0, n);
    this.matched.fill(0, 0, n);
    this.state.fill(0, 0, n);
    this.moved.fill(0, 0, n);
    this.firstConvoyer.fill(-1, 0, n);
    this.firstSupport.fill(-1, 0, n);
    this.dislodger.fill(-1, 0, n);
    this.deps.length = 0;
    this.extras = [];
    const { power, given, demoted } = this;
    power.length = n;
    given.length = n;
    demoted.length = n;
    let fleetSeas = 0;
    for (let i = 0; i < n; i++) {
      const unit = units[i]!;
      const pl = placeIn(board, unit.loc);
      if (pl < 0) throw new Error(`unit ${unit.type} ${unit.loc} of ${unit.power}: no such place on the map`);
      const p = board.provOf[pl]!;
      power[i] = unit.power;
      given[i] = undefined;
      demoted[i] = undefined;
      this.place[i] = pl;
      this.prov[i] = p;
      this.at[p] = i;
      if (unit.type === 'F') {
        this.fleet[i] = 1;
        fleetSeas |= board.seaBit[p]!;
      } else {
        this.fleet[i] = 0;
      }
    }
    this.fleetSeas = fleetSeas;
  }
}

const workspaces = new WeakMap<Board, Ctx>();

/** The board's workspace, reset for these units. */
export function newCtx(board: Board, units: readonly Unit[]): Ctx {
  let ctx = workspaces.get(board);
  if (!ctx || ctx.capacity < units.length) {
    ctx = new Ctx(board, Math.max(64, 2 * units.length));
    workspaces.set(board, ctx);
  }
  ctx.reset(units);
  return ctx;
}
