// What an honest phone does on its own, as a pure function of the view and the messages it has:
// accept the START that rosters it, reveal sealed orders as soon as the protocol says they are due,
// open its secret draw votes once every survivor has voted, acknowledge each resolved phase's state hash, and take part in the lot. Timeout votes are never
// automatic: a player asks for them (the deadline alone is this phone's clock's opinion).
import { POWER_LOT, drawRevealDue, revealDue, variantOf, type GameView, type Message } from '../../protocol';
import { POWERS, type Power } from '../../rules';

export type Duty =
  | { readonly kind: 'accept-start'; readonly startId: string }
  | { readonly kind: 'reveal'; readonly phase: string; readonly power: Power }
  | { readonly kind: 'draw-reveal'; readonly phase: string; readonly power: Power }
  | { readonly kind: 'ack'; readonly phase: string; readonly hash: string }
  | { readonly kind: 'lot-commit' }
  | { readonly kind: 'lot-reveal' };

/** Stable name of a duty, so the same one is not performed twice while its message travels. */
export function dutyKey(d: Duty): string {
  switch (d.kind) {
    case 'accept-start':
      return `accept|${d.startId}`;
    case 'reveal':
      return `reveal|${d.phase}|${d.power}`;
    case 'draw-reveal':
      return `draw-reveal|${d.phase}|${d.power}`;
    case 'ack':
      return `ack|${d.phase}`;
    default:
      return d.kind;
  }
}

const sameRoster = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  POWERS.every((p) => a[p] === b[p]);

/** The START the view counts: the valid one with the lowest id whose roster is the view's. */
export function startIdOf(view: GameView, messages: Iterable<Message>): string | undefined {
  if (view.roster === undefined || view.creator === undefined) return undefined;
  const ignored = new Set(view.ignored.filter((i) => i.reason !== 'duplicate-start').map((i) => i.id));
  let best: string | undefined;
  for (const m of messages) {
    const p = m.payload;
    if (p.type !== 'start' || p.from !== view.creator || ignored.has(m.id) || !sameRoster(p.roster, view.roster)) continue;
    if (best === undefined || m.id < best) best = m.id;
  }
  return best;
}

export interface DutyContext {
  readonly view: GameView;
  readonly me: string;
  /** Every message this phone has opened, by id. */
  readonly messages: ReadonlyMap<string, Message>;
  /** The creator asked to close the lot (only meaningful on the creator's phone). */
  readonly closeLot?: boolean;
}

/**
 * The powers this key plays now: who holds them changes with the two-player toss and hand-overs
 * (view.holders), and a neutral power's placeholder (the creator's key) is nobody's to play.
 */
export function powersOf(view: GameView, me: string): Power[] {
  const holders = view.holders ?? view.roster;
  if (holders === undefined) return [];
  // Before the first phase the view has no `neutral` yet; the variant says who starts neutral.
  const neutral = view.neutral ?? (view.settings === undefined ? [] : variantOf(view.settings.variant).neutral);
  return POWERS.filter((p) => holders[p] === me && !neutral.includes(p));
}

export function duties(ctx: DutyContext): Duty[] {
  const { view, me, messages } = ctx;
  const out: Duty[] = [];
  const mine = [...messages.values()].filter((m) => m.payload.from === me);

  if (view.status === 'lobby' && view.settings?.assignment === 'lot' && view.players.some((p) => p.key === me)) {
    const lot = view.lots.find((l) => l.name === POWER_LOT);
    const committed = lot?.committed.includes(me) ?? false;
    const revealed = lot?.revealed.includes(me) ?? false;
    if (!committed) out.push({ kind: 'lot-commit' });
    // Values stay hidden until the creator closes the lot by revealing first; then everyone reveals.
    else if (!revealed && view.creator !== undefined && (lot?.revealed.includes(view.creator) || (me === view.creator && ctx.closeLot === true))) {
      out.push({ kind: 'lot-reveal' });
    }
  }

  if (view.status === 'starting' && view.roster !== undefined && Object.values(view.roster).includes(me) && !view.accepted.includes(me)) {
    const startId = startIdOf(view, messages.values());
    if (startId !== undefined) out.push({ kind: 'accept-start', startId });
  }

  if (view.status === 'playing' || view.status === 'finished') {
    const powers = powersOf(view, me);
    if (powers.length > 0) {
      const acked = new Set(mine.flatMap((m) => (m.payload.type === 'ack' ? [m.payload.phase] : [])));
      for (const ph of view.phases) if (!acked.has(ph.key)) out.push({ kind: 'ack', phase: ph.key, hash: ph.stateHash });
    }
    const current = view.current;
    if (current !== undefined) for (const p of powers) if (revealDue(view, p)) out.push({ kind: 'reveal', phase: current.key, power: p });
    // Draw votes stay secret until every survivor has voted; then each phone opens its own.
    if (current !== undefined) for (const p of powers) if (drawRevealDue(view, p)) out.push({ kind: 'draw-reveal', phase: current.key, power: p });
  }
  return out;
}
