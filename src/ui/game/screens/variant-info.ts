// What the Game tab says about the variant: who plays which powers, who nobody plays, the
// two-player coin toss, and the "1914" alliances. Pure, so it is tested without a browser.
import { variantOf, type GameView } from '../../../protocol';
import { POWERS, type Power, type Variant } from '../../../rules';
import type { Lang } from '../../i18n';

export interface SeatInfo {
  readonly id: string;
  readonly powers: readonly Power[];
  /** Names of the players holding these powers now (one, unless a hand-over split them). */
  readonly players: readonly string[];
}

export interface VariantInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly seats: readonly SeatInfo[];
  readonly neutral: readonly Power[];
  /** The toss power is neutral and its provinces impassable now. */
  readonly italyClosed: boolean;
  /** The toss: pending (the phase key it is made in), or decided. */
  readonly toss?: { readonly phase: string; readonly done: boolean; readonly winner: readonly Power[] | null };
  readonly alliancesAllowed: boolean;
}

/** The variant as played now: null until the phases are played (the game screens show only those). */
export function variantInfo(view: GameView, lang: Lang): VariantInfo | null {
  if (view.status !== 'playing' && view.status !== 'finished') return null;
  const id = view.settings.variant;
  const variant: Variant = variantOf(id);
  const holders = view.holders;
  const nameOf = (key: string | undefined) => view.players.find((p) => p.key === key)?.name ?? '?';
  const seats = view.seats.map((s) => ({
    id: s.id,
    powers: [...s.powers],
    players: [...new Set(s.powers.map((p) => nameOf(holders[p])))].sort(),
  }));
  const neutral = [...view.neutral];
  const t = variant.toss;
  const tossPhase = t === undefined ? undefined : `${t.year}-fall-movement`;
  const toss = view.toss;
  const winnerSeat = toss?.winner == null ? null : (variant.seats.find((s) => s.id === toss.winner) ?? null);
  return {
    id,
    name: variant.name[lang],
    description: variant.description[lang],
    seats,
    neutral,
    italyClosed: t !== undefined && neutral.includes(t.power) && (toss === undefined || toss.winner === null),
    ...(tossPhase === undefined
      ? {}
      : { toss: { phase: toss?.phase ?? tossPhase, done: toss !== undefined, winner: winnerSeat === null ? null : [...winnerSeat.powers] } }),
    alliancesAllowed: view.rules.allianceVictory === true,
  };
}

/** Powers of mine that could sign an alliance now, and the others they could ally with. */
export function allianceChoices(view: GameView, myPowers: readonly Power[]): { mine: Power[]; others: Power[] } {
  const neutral = view.neutral;
  if (view.status !== 'playing' && view.status !== 'finished') return { mine: [], others: [] };
  const alive = new Set(view.position.units.map((u) => u.power));
  const playable = POWERS.filter((p) => !neutral.includes(p) && alive.has(p));
  return { mine: playable.filter((p) => myPowers.includes(p)), others: playable.filter((p) => !myPowers.includes(p)) };
}
