// What an honest phone does on its own, as a pure function of the view:
// accept the START that names it (only when it is the only one: a second START is never accepted
// without the person choosing), take part in the lot, sign FINAL, LOCK and REVEAL as soon as the
// protocol says they are due (ballotDuties: a FINAL at once once the player marked its orders final), claim the clock where a two-player game needs it, and
// acknowledge each resolved phase's state hash (in its next LOCK when it owes one: ackCarriedByLock). Timeout votes are never automatic: a player asks
// for them (the deadline alone is this phone's clock's opinion).
import { ackCarriedByLock, ballotDuties, clockDue, type GameView } from '../../protocol';
import { POWERS, type Power } from '../../rules';

export type Duty =
  | { readonly kind: 'accept-start'; readonly startId: string }
  | { readonly kind: 'ack'; readonly phase: string; readonly hash: string }
  | { readonly kind: 'lot-commit' }
  | { readonly kind: 'final'; readonly phase: string; readonly power: Power }
  | { readonly kind: 'lock'; readonly phase: string }
  | { readonly kind: 'reveal'; readonly phase: string }
  | { readonly kind: 'clock'; readonly phase: string };

/** Stable name of a duty, so the same one is not performed twice while its message travels. */
export function dutyKey(d: Duty): string {
  switch (d.kind) {
    case 'accept-start':
      return `accept|${d.startId}`;
    case 'final':
      return `final|${d.phase}|${d.power}`;
    case 'ack':
    case 'lock':
    case 'reveal':
    case 'clock':
      return `${d.kind}|${d.phase}`;
    default:
      return d.kind;
  }
}

export interface DutyContext {
  readonly view: GameView;
  readonly me: string;
  /** This phone's clock (for the two-player CLOCK claim); without it no CLOCK is due. */
  readonly now?: number;
  /** The phase whose orders the player marked final: its FINALs are due as soon as its own powers have sealed (ballotDuties). */
  readonly ready?: string;
}

/**
 * The powers this key plays now: who holds them changes with the two-player toss and hand-overs
 * (view.holders), and a neutral power's placeholder (the creator's key) is nobody's to play.
 */
export function powersOf(view: GameView, me: string): Power[] {
  const holders = view.holders;
  if (holders === undefined) return [];
  const neutral = view.neutral;
  return POWERS.filter((p) => holders[p] === me && !neutral.includes(p));
}

export function duties(ctx: DutyContext): Duty[] {
  const { view, me } = ctx;
  const out: Duty[] = [];

  // A phone accepts one START, ever, and never on its own when there are two: the person compares
  // fingerprints with the table and chooses (the forked screen).
  const acceptedOne = view.acceptances[me] !== undefined;
  const twoStarts = view.starts.length > 1;
  if (view.status === 'starting' && view.members.includes(me) && !acceptedOne && !twoStarts && view.creator !== me) {
    out.push({ kind: 'accept-start', startId: view.start });
  }

  if (view.status === 'lot' && view.lot.participants.includes(me) && view.lot.ballot.commits[me] === undefined) out.push({ kind: 'lot-commit' });

  if (view.status === 'playing' || view.status === 'finished') {
    if (powersOf(view, me).length > 0) {
      // The ACK of the phase just resolved rides in this key's LOCK of the open phase when it owes one.
      const carried = ackCarriedByLock(view, me);
      for (const ph of view.phases)
        if (view.acked[ph.key]?.includes(me) !== true && ph.key !== carried) out.push({ kind: 'ack', phase: ph.key, hash: ph.stateHash });
    }
  }

  const phase = view.status === 'lot' ? 'lot' : view.status === 'playing' ? view.current?.key : undefined;
  if (phase !== undefined) {
    const due = ballotDuties(view, me, ctx.ready === undefined ? {} : { ready: ctx.ready });
    for (const power of due.finals) out.push({ kind: 'final', phase, power: power as Power });
    if (due.lock) out.push({ kind: 'lock', phase });
    if (due.reveal) out.push({ kind: 'reveal', phase });
    if (ctx.now !== undefined && clockDue(view, me, ctx.now) !== null) out.push({ kind: 'clock', phase });
  }
  return out;
}
