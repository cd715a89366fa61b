// Pure helpers behind the in-game screens: what this player owes, who we wait for, countdowns,
// the history as text and JSON, the centre chart's data and which units moved where. No React, no
// clock (the caller passes `now`), so node tests check them directly.
import { POWERS, centreCounts, formatOrder, provinceOf } from '../../../rules';
import type { Loc, Order, Position, Power } from '../../../rules';
import type { GameView, ResolvedPhase } from '../../../protocol';
import { STRINGS, type Lang } from '../../i18n';
import { draftKey } from '../../orders/draft';

const PHASE_RE = /^(\d+)-(spring|fall|winter)-(movement|retreat|adjustment)$/;

/** '1901-spring-movement' in words: 'Primavera 1901, movimientos'. */
export function phaseLabel(key: string, lang: Lang): string {
  const m = PHASE_RE.exec(key);
  if (!m) return key;
  const t = STRINGS[lang];
  return `${t.seasons[m[2] as 'spring']} ${m[1]}, ${t.phaseKinds[m[3] as 'movement']}`;
}

export function powerList(powers: readonly Power[], lang: Lang, none: string): string {
  return powers.length === 0 ? none : powers.map((p) => STRINGS[lang].powers[p]).join(', ');
}

export interface PhaseTask {
  /** My powers whose orders this phase awaits. */
  readonly mine: readonly Power[];
  /** Awaited powers that are not mine and have not sealed yet. */
  readonly waitingFor: readonly Power[];
  /** Every awaited power (for "only these play this phase"). */
  readonly required: readonly Power[];
}

export function phaseTask(view: GameView, myPowers: readonly Power[]): PhaseTask {
  const c = view.current;
  if (!c) return { mine: [], waitingFor: [], required: [] };
  const mine = c.required.filter((p) => myPowers.includes(p) && !c.timedOut.includes(p));
  const waitingFor = c.required.filter((p) => !myPowers.includes(p) && !c.committed.includes(p) && !c.timedOut.includes(p));
  return { mine, waitingFor, required: c.required };
}

export interface SealStatus {
  readonly sealed: readonly Power[];
  readonly missing: readonly Power[];
  readonly revealed: readonly Power[];
  readonly timedOut: readonly Power[];
}

/** Who has sealed (never what): from the open phase's committed list; `revealed`: powers whose orders are final (FINAL signed). */
export function sealStatus(view: GameView): SealStatus {
  const c = view.current;
  if (!c) return { sealed: [], missing: [], revealed: [], timedOut: [] };
  return {
    sealed: c.required.filter((p) => c.committed.includes(p)),
    missing: c.required.filter((p) => !c.committed.includes(p) && !c.timedOut.includes(p)),
    revealed: c.required.filter((p) => c.finalized.includes(p)),
    timedOut: [...c.timedOut],
  };
}

/** 'd h:mm:ss' left until the deadline; null once it has passed. */
/** A table game has no deadline: the protocol still needs a number, so the new-game screen signs
 *  one decades away (game/create.ts NO_DEADLINE_MS). A phase longer than a year has none. */
const NO_DEADLINE_AFTER_MS = 365 * 24 * 3600 * 1000;

export function hasDeadline(phase: { readonly openedAt: number; readonly deadline: number }): boolean {
  const length = phase.deadline - phase.openedAt;
  return length > 0 && length < NO_DEADLINE_AFTER_MS;
}

export function countdown(deadline: number, now: number): string | null {
  const ms = deadline - now;
  if (ms <= 0) return null;
  const s = Math.ceil(ms / 1000);
  const days = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const clock = `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** Same orders, whatever their order in the list. */
export function sameOrders(a: readonly Order[] | undefined, b: readonly Order[] | undefined): boolean {
  const key = (os: readonly Order[] | undefined) =>
    (os ?? [])
      .map((o) => `${draftKey(o)}=${JSON.stringify(o)}`)
      .sort()
      .join('\n');
  return key(a) === key(b);
}

/** Orders of one power out of a mixed draft. */
export function ordersOf(draft: readonly Order[], power: Power): Order[] {
  return draft.filter((o) => o.power === power);
}

/** The game as text: every resolved phase with each power's orders in the rulebook notation. */
export function historyText(view: GameView, lang: Lang): string {
  const t = STRINGS[lang];
  const lines: string[] = [`Pacto ${view.gameId}`];
  for (const phase of view.phases) {
    lines.push('', `${phaseLabel(phase.key, lang)}`);
    for (const p of POWERS) {
      const orders = phase.orders[p];
      if (!orders || orders.length === 0) continue;
      lines.push(`${t.powers[p]}:`);
      for (const o of orders) lines.push(`  ${formatOrder(o, lang)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The game as JSON: settings, players and every resolved phase with orders and results. */
export function historyJson(view: GameView): string {
  const data = {
    gameId: view.gameId,
    settings: view.settings ?? null,
    roster: view.roster ?? null,
    players: view.players.map((p) => ({ key: p.key, name: p.name })),
    phases: view.phases.map((p) => ({
      phase: p.key,
      position: p.position,
      orders: p.orders,
      results: p.results,
      civilDisorder: p.civilDisorder,
      timedOut: p.timedOut,
      conceded: p.conceded,
      stateHash: p.stateHash,
    })),
    position: view.position ?? null,
    result: view.result ?? null,
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

export interface CentreYear {
  readonly year: number;
  readonly counts: Readonly<Record<Power, number>>;
}

/**
 * Centre counts per year: the board at the end of each year, i.e. the last position seen in that
 * year (a phase's board, or the board now for the current year).
 */
export function centreSeries(view: GameView): CentreYear[] {
  const positions: Position[] = view.phases.map((p) => p.position);
  if (view.position) positions.push(view.position);
  const byYear = new Map<number, Position>();
  for (const p of positions) byYear.set(p.phase.year, p);
  return [...byYear.entries()].sort((a, b) => a[0] - b[0]).map(([year, p]) => ({ year, counts: centreCounts(p) }));
}

/** The board after a resolved phase: the next phase's board, or the board now. */
export function positionAfter(view: GameView, index: number): Position | undefined {
  return view.phases[index + 1]?.position ?? view.position;
}

export interface UnitMove {
  /** Index of the unit in the position after the phase. */
  readonly index: number;
  readonly from: Loc;
  readonly to: Loc;
}

/** Units of `after` that a successful move or retreat of `phase` brought where they stand. */
export function unitMoves(phase: ResolvedPhase, after: Position): UnitMove[] {
  const moves: UnitMove[] = [];
  for (const r of phase.results) {
    const o = r.order;
    if (!r.success || (o.kind !== 'move' && o.kind !== 'retreat')) continue;
    const index = after.units.findIndex((u) => u.power === o.power && provinceOf(u.loc) === provinceOf(o.to));
    if (index >= 0) moves.push({ index, from: o.unit.loc, to: after.units[index]!.loc });
  }
  return moves.sort((a, b) => a.index - b.index);
}

/** Units of `after` that a build of `phase` created. */
export function builtUnits(phase: ResolvedPhase, after: Position): number[] {
  const built = phase.results
    .filter((r) => r.success && r.order.kind === 'build')
    .map((r) => provinceOf((r.order as Extract<Order, { kind: 'build' }>).unit.loc));
  return after.units.map((u, i) => (built.includes(provinceOf(u.loc)) ? i : -1)).filter((i) => i >= 0);
}

export interface DrawState {
  /** Surviving powers: a draw needs every one of them. */
  readonly voters: readonly Power[];
  /** The last resolved movement phase's opened votes (votes are sealed with the orders). */
  readonly last?: {
    readonly phase: string;
    readonly yes: readonly Power[];
    readonly of: number;
    /** The survivors whose vote counted. */ readonly voters: readonly Power[];
  };
  readonly mineVoters: readonly Power[];
  /** Every surviving power of mine has sealed a yes in this phase (this phone's own record). */
  readonly mineVoted: boolean;
  /** Votes may still change: orders are not final yet. */
  readonly open: boolean;
}

/** The draw vote as this player sees it: its own sealed votes, and the last phase's opened tally. */
export function drawState(view: GameView, myPowers: readonly Power[], myVotes: Partial<Record<Power, boolean>> = {}): DrawState {
  const c = view.current;
  const lastPhase = [...view.phases].reverse().find((ph) => ph.drawVotes !== undefined);
  const lastVoters = lastPhase?.drawVoters ?? lastPhase?.drawVotes ?? [];
  const last = lastPhase === undefined ? undefined : { phase: lastPhase.key, yes: lastPhase.drawVotes!, of: lastVoters.length, voters: lastVoters };
  if (!c) return { voters: [], mineVoters: [], mineVoted: false, open: false, ...(last === undefined ? {} : { last }) };
  const mineVoters = c.drawVoters.filter((p) => myPowers.includes(p));
  return {
    voters: c.drawVoters,
    ...(last === undefined ? {} : { last }),
    mineVoters,
    mineVoted: mineVoters.length > 0 && mineVoters.every((p) => myVotes[p] === true),
    open: c.ballot.stage === 'orders' && !mineVoters.some((p) => c.finalized.includes(p)),
  };
}

/** How many warnings the view holds (hash mismatches and misconduct): the list's and the header mark's count. */
export function warningCount(view: GameView): number {
  return view.hashMismatches.length + view.misconduct.length;
}

/** Press is on unless the settings say gunboat (no field in Settings yet: `rules.gunboat`, absent = press on).
 *  The one place this is read: the screens hide press by it and the runner refuses a chat by it. */
export function pressEnabled(view: GameView): boolean {
  return view.settings?.rules?.['gunboat'] !== true;
}

/** Who holds each power now, in a game whose phases are played (the only views the game screens
 *  show: GamePage routes the others to the lobby); nobody before. */
export function holdersOf(view: GameView): Readonly<Partial<Record<Power, string>>> {
  return view.status === 'playing' || view.status === 'finished' ? view.holders : {};
}

/** The powers a key holds, for naming authors and recipients. */
export function powersOfKey(view: GameView, key: string): Power[] {
  const holders = holdersOf(view);
  return POWERS.filter((p) => holders[p] === key);
}

/** Powers a player can write to: held by someone else and not a variant's neutral. */
export function pressRecipients(view: GameView, myKey: string): Power[] {
  const holders = holdersOf(view);
  const neutral = view.neutral;
  return POWERS.filter((p) => holders[p] !== undefined && holders[p] !== myKey && !neutral.includes(p));
}

/** "A, B and C" / "A, B y C". */
export function joinList(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}
