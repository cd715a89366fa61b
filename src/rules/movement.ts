// Adjudication of a movement phase. The rule choices it makes are listed in docs/rule-choices.md.
import type { AdjudicateOptions, Dislodged, Order, OrderResult, Position, Power, ProvinceId, Unit } from './types';
import { STANDARD_MAP } from './map';
import { boardOf } from './movement/board';
import { newCtx } from './movement/context';
import { decided } from './movement/decide';
import { readOrders } from './movement/orders';
import { HOLD } from './movement/context';
import { aftermath, contestedProvinces, dislodgedUnits, provinceNames, unitResults, unitsAfter } from './movement/results';

export interface MovementOutcome {
  /** One per unit (sorted by loc), then one per order that commands no unit. */
  readonly results: OrderResult[];
  readonly dislodged: Dislodged[];
  /** Provinces left empty by a standoff: no retreats there. */
  readonly contested: ProvinceId[];
  /** Units after the moves, dislodged ones removed, sorted by loc. */
  readonly units: Unit[];
}

const NO_POWERS: ReadonlySet<Power> = new Set();

export function adjudicateMovement(position: Position, orders: readonly Order[], options?: AdjudicateOptions): MovementOutcome {
  const board = boardOf(options?.map ?? STANDARD_MAP);
  const ctx = newCtx(board, position.units);
  readOrders(ctx, orders, {
    civilDisorder: options?.civilDisorder ? new Set(options.civilDisorder) : NO_POWERS,
    supportNeedsConsent: options?.rules?.supportNeedsConsent === true,
  });
  for (let u = 0; u < ctx.n; u++) if (ctx.kind[u] !== HOLD) decided(ctx, u);

  const after = aftermath(ctx);
  const contested = contestedProvinces(ctx, after);
  const results = unitResults(ctx, after);
  if (ctx.extras.length > 0) for (const r of sortExtras(ctx.extras)) results.push(r);
  return {
    results,
    dislodged: dislodgedUnits(ctx, after, contested),
    contested: provinceNames(ctx, contested),
    units: unitsAfter(ctx, after),
  };
}

/** Orders that command no unit, by power and then by the location they name (stable). */
function sortExtras(extras: OrderResult[]): OrderResult[] {
  return extras
    .map((r, i) => ({ r, k: `${r.order.power}|${'unit' in r.order ? r.order.unit.loc : ''}`, i }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i))
    .map((x) => x.r);
}
