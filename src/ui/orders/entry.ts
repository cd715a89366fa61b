// Order entry by tapping, as a pure state machine: a tap on the map or a button press moves it
// one step and may yield an order. Every choice it offers comes from the rules engine's legal
// orders (legalOrdersForUnit, adjustmentOrders), so the app cannot produce an order the
// adjudicator would call illegal. Orders typed as text (readTypedOrders, at the end) are read by
// the engine's parser and given to the power of the unit they order.
import { adjustmentOrders, describeParseError, formatUnit, legalOrdersForUnit, parseOrders, provinceOf } from '../../rules';
import type { GameMap, Loc, Order, Position, Power, ProvinceId, RuleOptions, Unit } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { TYPED_STRINGS } from './strings';

export type EntryState =
  | { readonly step: 'idle' }
  /** A unit is selected: its moves are the targets. `viaConvoy` offers the convoyed moves instead. */
  | { readonly step: 'move'; readonly unit: Loc; readonly viaConvoy: boolean }
  | { readonly step: 'support-unit'; readonly unit: Loc }
  | { readonly step: 'support-target'; readonly unit: Loc; readonly supported: Loc }
  | { readonly step: 'convoy-army'; readonly unit: Loc }
  | { readonly step: 'convoy-target'; readonly unit: Loc; readonly army: ProvinceId }
  | { readonly step: 'retreat'; readonly unit: Loc }
  /** Several orders fit the tap (two coasts, army or fleet): the player picks one from a list. */
  | { readonly step: 'choose'; readonly unit?: Loc; readonly options: readonly Order[] };

export const IDLE: EntryState = { step: 'idle' };

export interface EntryContext {
  readonly position: Position;
  /** The powers this player gives orders for (all seven on the practice board). */
  readonly powers: readonly Power[];
  /** Orders already drafted: adjustments may not exceed the builds or removals due. */
  readonly draft: readonly Order[];
  /** The phase's map (the view's current.map in a game: a variant may close provinces), so the
   *  choices offered and the text read are the adjudicator's. No fallback: the standard map is
   *  passed by whoever plays on it (the practice board). */
  readonly map: GameMap;
  /** The game's rule switches (the view's rules). Under "1914" rules (supportNeedsConsent) a
   *  support by another power's unit counts only if the supported power writes it too, so a
   *  typed support of the player's unit by a foreign unit is taken as that consent. */
  readonly rules?: Partial<RuleOptions>;
}

export type EntryAction = 'hold' | 'support' | 'convoy' | 'via-convoy' | 'direct' | 'disband' | 'cancel';

export interface EntryView {
  /** Locations that start an entry when tapped (units to order, centres to build in). */
  readonly selectable: readonly Loc[];
  /** Locations the current step accepts (highlighted on the map). */
  readonly targets: readonly Loc[];
  readonly actions: readonly EntryAction[];
  /** In the 'choose' step: the orders to pick from. */
  readonly options: readonly Order[];
  /** The unit being ordered, if any. */
  readonly unit?: Loc;
}

export interface EntryOutcome {
  readonly state: EntryState;
  readonly order?: Order;
  /** Drop the drafted order of the unit in this province (tapping a removal again undoes it). */
  readonly clear?: ProvinceId;
}

const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** Does a tap on `tapped` hit `target`? A bare province stands for any of its coasts and vice versa,
 *  but a tap on one coast never hits the other coast. */
export function hits(target: Loc, tapped: Loc): boolean {
  if (target === tapped) return true;
  if (provinceOf(target) !== provinceOf(tapped)) return false;
  return target === provinceOf(target) || tapped === provinceOf(tapped);
}

function unitOrders(state: { unit: Loc }, ctx: EntryContext): Order[] {
  return legalOrdersForUnit(ctx.position, state.unit, ctx.map);
}

/**
 * "Move via convoy" offers every move the legal list has that only a convoy makes: the list marks
 * `viaConvoy` on a province the army could also walk to, and leaves a convoy-only move such as
 * A Yor - Nwy unmarked (a move beyond the army's neighbours can only be by convoy), so offering
 * the marked ones alone lost Norway. Without the button: every move but the marked ones.
 */
function movesOffered(state: { unit: Loc; viaConvoy: boolean }, ctx: EntryContext): Order[] {
  const moves = unitOrders(state, ctx).filter((o) => o.kind === 'move');
  if (!state.viaConvoy) return moves.filter((o) => o.kind === 'move' && o.viaConvoy !== true);
  const neighbours = ctx.map.armyEdges[provinceOf(state.unit)] ?? [];
  return moves.filter((o) => o.kind === 'move' && o.unit.type === 'A' && (o.viaConvoy === true || !neighbours.includes(provinceOf(o.to))));
}

/** The candidate orders of a step and the map location each one is entered by. */
function candidates(state: EntryState, ctx: EntryContext): Array<{ order: Order; target: Loc }> {
  switch (state.step) {
    case 'move':
      return movesOffered(state, ctx).flatMap((o) => (o.kind === 'move' ? [{ order: o, target: o.to }] : []));
    case 'support-target':
      return unitOrders(state, ctx).flatMap((o) =>
        o.kind === 'support' && o.supported.loc === state.supported ? [{ order: o, target: o.to ?? provinceOf(o.supported.loc) }] : [],
      );
    case 'convoy-target':
      return unitOrders(state, ctx).flatMap((o) => (o.kind === 'convoy' && o.army === state.army ? [{ order: o, target: o.to }] : []));
    case 'retreat':
      return unitOrders(state, ctx).flatMap((o) => (o.kind === 'retreat' ? [{ order: o, target: o.to }] : []));
    default:
      return [];
  }
}

function ordersOfKind(state: { unit: Loc }, ctx: EntryContext, kind: Order['kind']): Order[] {
  return unitOrders(state, ctx).filter((o) => o.kind === kind);
}

/** Adjustment choices still open to `power`, given what is already drafted elsewhere. */
function adjustmentChoices(ctx: EntryContext, power: Power): { builds: Order[]; removals: Order[] } {
  const { builds, removals, delta } = adjustmentOrders(ctx.position, power, ctx.map);
  const drafted = ctx.draft.filter((o) => o.power === power && (o.kind === 'build' || o.kind === 'remove'));
  const draftedAt = new Set(drafted.map((o) => (o.kind === 'waive' ? '' : provinceOf(o.unit.loc))));
  const room = Math.abs(delta) - drafted.length;
  // A province already drafted stays open so the player can change or undo its order.
  const open = (o: Order): boolean => o.kind !== 'waive' && (room > 0 || draftedAt.has(provinceOf(o.unit.loc)));
  return { builds: delta > 0 ? builds.filter(open) : [], removals: delta < 0 ? removals.filter(open) : [] };
}

function selectable(ctx: EntryContext): Loc[] {
  const { position } = ctx;
  const mine = (p: Power): boolean => ctx.powers.includes(p);
  switch (position.phase.kind) {
    case 'movement':
      return position.units
        .filter((u) => mine(u.power))
        .map((u) => u.loc)
        .sort();
    case 'retreat':
      return position.dislodged
        .filter((d) => mine(d.unit.power))
        .map((d) => d.unit.loc)
        .sort();
    case 'adjustment':
      return sortedUnique(
        ctx.powers.flatMap((p) => {
          const c = adjustmentChoices(ctx, p);
          return [...c.builds, ...c.removals].map((o) => (o.kind === 'waive' ? '' : provinceOf(o.unit.loc)));
        }),
      );
  }
}

export function entryView(state: EntryState, ctx: EntryContext): EntryView {
  const none: readonly never[] = [];
  switch (state.step) {
    case 'idle':
      return { selectable: selectable(ctx), targets: none, actions: none, options: none };
    case 'move': {
      const actions: EntryAction[] = ['hold'];
      if (ordersOfKind(state, ctx, 'support').length > 0) actions.push('support');
      if (ordersOfKind(state, ctx, 'convoy').length > 0) actions.push('convoy');
      const convoyed = movesOffered({ unit: state.unit, viaConvoy: true }, ctx).length > 0;
      if (convoyed) actions.push(state.viaConvoy ? 'direct' : 'via-convoy');
      actions.push('cancel');
      return { selectable: selectable(ctx), targets: sortedUnique(candidates(state, ctx).map((c) => c.target)), actions, options: none, unit: state.unit };
    }
    case 'support-unit':
      return {
        selectable: none,
        targets: sortedUnique(ordersOfKind(state, ctx, 'support').map((o) => (o.kind === 'support' ? o.supported.loc : ''))),
        actions: ['cancel'],
        options: none,
        unit: state.unit,
      };
    case 'convoy-army':
      return {
        selectable: none,
        targets: sortedUnique(ordersOfKind(state, ctx, 'convoy').map((o) => (o.kind === 'convoy' ? o.army : ''))),
        actions: ['cancel'],
        options: none,
        unit: state.unit,
      };
    case 'support-target':
    case 'convoy-target':
      return { selectable: none, targets: sortedUnique(candidates(state, ctx).map((c) => c.target)), actions: ['cancel'], options: none, unit: state.unit };
    case 'retreat':
      return {
        selectable: none,
        targets: sortedUnique(candidates(state, ctx).map((c) => c.target)),
        actions: ['disband', 'cancel'],
        options: none,
        unit: state.unit,
      };
    case 'choose':
      return { selectable: none, targets: none, actions: ['cancel'], options: state.options, ...(state.unit ? { unit: state.unit } : {}) };
  }
}

/** One order ends the entry; several ask the player to choose; none leaves the state alone. */
function settle(state: EntryState, orders: readonly Order[], unit?: Loc): EntryOutcome {
  if (orders.length === 1) return { state: IDLE, order: orders[0]! };
  if (orders.length > 1) return { state: { step: 'choose', options: orders, ...(unit ? { unit } : {}) } };
  return { state };
}

function start(ctx: EntryContext, tapped: Loc): EntryOutcome {
  const { position } = ctx;
  const province = provinceOf(tapped);
  const mine = (p: Power): boolean => ctx.powers.includes(p);
  switch (position.phase.kind) {
    case 'movement': {
      const unit = position.units.find((u) => provinceOf(u.loc) === province && mine(u.power));
      return { state: unit ? { step: 'move', unit: unit.loc, viaConvoy: false } : IDLE };
    }
    case 'retreat': {
      const d = position.dislodged.find((x) => provinceOf(x.unit.loc) === province && mine(x.unit.power));
      return { state: d ? { step: 'retreat', unit: d.unit.loc } : IDLE };
    }
    case 'adjustment': {
      for (const p of ctx.powers) {
        const c = adjustmentChoices(ctx, p);
        const removal = c.removals.find((o) => o.kind === 'remove' && provinceOf(o.unit.loc) === province);
        if (removal) {
          const drafted = ctx.draft.some((o) => o.kind === 'remove' && provinceOf(o.unit.loc) === province);
          return drafted ? { state: IDLE, clear: province } : { state: IDLE, order: removal };
        }
        const builds = c.builds.filter((o) => o.kind === 'build' && hits(o.unit.loc, tapped));
        if (builds.length > 0) return settle(IDLE, builds);
      }
      return { state: IDLE };
    }
  }
}

export function tapLoc(state: EntryState, ctx: EntryContext, tapped: Loc): EntryOutcome {
  switch (state.step) {
    case 'idle':
    case 'choose':
      return start(ctx, tapped);
    case 'move': {
      if (provinceOf(tapped) === provinceOf(state.unit)) {
        const hold = ordersOfKind(state, ctx, 'hold');
        return settle(state, hold);
      }
      const matched = candidates(state, ctx).filter((c) => hits(c.target, tapped));
      if (matched.length > 0)
        return settle(
          state,
          matched.map((c) => c.order),
          state.unit,
        );
      return start(ctx, tapped); // another unit of ours: switch to it; elsewhere: deselect
    }
    case 'support-unit': {
      const supported = entryView(state, ctx).targets.find((t) => hits(t, tapped));
      return { state: supported ? { step: 'support-target', unit: state.unit, supported } : state };
    }
    case 'convoy-army': {
      const army = entryView(state, ctx).targets.find((t) => hits(t, tapped));
      return { state: army ? { step: 'convoy-target', unit: state.unit, army: provinceOf(army) } : state };
    }
    case 'support-target':
    case 'convoy-target':
    case 'retreat': {
      const matched = candidates(state, ctx).filter((c) => hits(c.target, tapped));
      return settle(
        state,
        matched.map((c) => c.order),
        state.unit,
      );
    }
  }
}

export function act(state: EntryState, ctx: EntryContext, action: EntryAction): EntryOutcome {
  if (action === 'cancel') return { state: IDLE };
  if (!entryView(state, ctx).actions.includes(action) || !('unit' in state) || state.unit === undefined) return { state };
  const unit = state.unit;
  switch (action) {
    case 'hold':
      return settle(state, ordersOfKind({ unit }, ctx, 'hold'));
    case 'disband':
      return settle(state, ordersOfKind({ unit }, ctx, 'disband'));
    case 'support':
      return { state: { step: 'support-unit', unit } };
    case 'convoy':
      return { state: { step: 'convoy-army', unit } };
    case 'via-convoy':
      return { state: { step: 'move', unit, viaConvoy: true } };
    case 'direct':
      return { state: { step: 'move', unit, viaConvoy: false } };
  }
}

export function choose(state: EntryState, index: number): EntryOutcome {
  if (state.step !== 'choose') return { state };
  const order = state.options[index];
  return order ? { state: IDLE, order } : { state };
}

/** Why a typed order was not taken. */
export type TypedRefusal =
  | { readonly why: 'no-unit'; readonly province: ProvinceId }
  /** The unit (with its owner) belongs to a power this player does not hold. */
  | { readonly why: 'not-yours'; readonly unit: Unit }
  /** A build in the home centre of a power this player does not hold. */
  | { readonly why: 'not-your-home'; readonly province: ProvinceId; readonly power: Power };

/**
 * The power a typed order is for. Typed orders name units, not powers (the power picked beside
 * the text box only fills in a waive, or a build outside any home centre, which the adjudicator
 * then refuses): the order goes to the power that owns the unit it orders (in a retreat phase the
 * dislodged unit there; for a build, the power whose home centre it is) if this player holds that
 * power, and is refused otherwise, before it can reach a seal. Under "1914" rules a support of
 * the player's unit by a unit of a power the player does not hold is the supported power's
 * consent to it, and goes to the supported power.
 */
export function typedOrderPower(order: Order, ctx: EntryContext): Power | TypedRefusal {
  if (order.kind === 'waive') return order.power;
  const province = provinceOf(order.unit.loc);
  const { position } = ctx;
  if (order.kind === 'build') {
    const home = ctx.map.provinces[province]?.home;
    if (home === undefined) return order.power;
    return ctx.powers.includes(home) ? home : { why: 'not-your-home', province, power: home };
  }
  const units = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : position.units;
  const unit = units.find((u) => provinceOf(u.loc) === province);
  if (unit === undefined) return { why: 'no-unit', province };
  if (ctx.powers.includes(unit.power)) return unit.power;
  if (order.kind === 'support' && ctx.rules?.supportNeedsConsent === true && position.phase.kind === 'movement') {
    const supported = position.units.find((u) => provinceOf(u.loc) === provinceOf(order.supported.loc));
    if (supported !== undefined && ctx.powers.includes(supported.power)) return supported.power;
  }
  return { why: 'not-yours', unit };
}

/** A refusal in words, naming the unit and its owner. */
export function describeRefusal(refusal: TypedRefusal, ctx: EntryContext, lang: Lang): string {
  const t = TYPED_STRINGS[lang];
  const map = ctx.map;
  const place = (id: ProvinceId): string => map.provinces[id]?.name[lang] ?? id;
  switch (refusal.why) {
    case 'no-unit':
      return ctx.position.phase.kind === 'retreat' ? t.noRetreat(place(refusal.province)) : t.noUnit(place(refusal.province));
    case 'not-yours':
      return t.notYours(formatUnit(refusal.unit, lang, 'short', map), STRINGS[lang].powers[refusal.unit.power]);
    case 'not-your-home':
      return t.notYourHome(place(refusal.province), STRINGS[lang].powers[refusal.power]);
  }
}

export interface TypedOrders {
  /** The orders taken, each with the power of the unit it orders. */
  readonly orders: readonly Order[];
  /** Lines that could not be read, or name a unit this player does not hold. */
  readonly errors: readonly { readonly line: number; readonly text: string; readonly message: string }[];
}

/** Orders typed in the rulebook notations: read with the position (`power` is the one picked
 *  beside the box), each given to its unit's power or refused with a reason. */
export function readTypedOrders(text: string, ctx: EntryContext, power: Power, lang: Lang): TypedOrders {
  const map = ctx.map;
  const parsed = parseOrders(text, { power, phase: ctx.position.phase.kind, lang, position: ctx.position, map });
  const errors = parsed.errors.map((e) => ({ line: e.line, text: e.text, message: describeParseError(e.error, lang, map) }));
  const orders: Order[] = [];
  for (const l of parsed.lines) {
    const owner = typedOrderPower(l.order, ctx);
    if (typeof owner === 'string') orders.push(owner === l.order.power ? l.order : { ...l.order, power: owner });
    else errors.push({ line: l.line, text: l.text, message: describeRefusal(owner, ctx, lang) });
  }
  errors.sort((a, b) => a.line - b.line);
  return { orders, errors };
}
