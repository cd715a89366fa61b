// What a woken phone tells its player, composed on the phone in the player's language from the
// game's view before and after the wake (nothing of it travels in the push): results in, a retreat
// or build needed, orders due (with the deadline), a draw vote open, a message arrived (the sender
// only). Null when there is nothing to do or see. One notification per game (its tag), so a
// second one replaces the first.
import type { GameView } from '../../protocol';
import type { Power } from '../../rules';
import { phaseName, powerName, type Lang } from '../i18n';
import type { GameNotifySettings } from '../game/records';

export interface GameGlance {
  readonly view: GameView;
  /** The powers this device's player holds. */
  readonly powers: readonly Power[];
  /** Press messages from the others, with the sender's power when known. */
  readonly incoming: readonly { readonly id: string; readonly fromPower?: Power }[];
}

export interface GameNotification {
  readonly title: string;
  readonly body: string;
  /** One per game: a newer one replaces it. */
  readonly tag: string;
  /** Where tapping it goes (a hash route of the app). */
  readonly url: string;
  readonly kind: 'results' | 'retreat' | 'build' | 'orders' | 'draw' | 'message';
}

const S = {
  es: {
    results: (phase: string) => `${phase}: ya están los resultados.`,
    retreat: 'Tienes que retirar unidades.',
    build: 'Tienes que construir o disbandar unidades.',
    orders: (phase: string) => `Te toca dar órdenes: ${phase}.`,
    deadline: (when: string) => ` Plazo: ${when}.`,
    draw: 'Hay una votación de tablas abierta: se vota con las órdenes.',
    message: (from: string) => `Nuevo mensaje de ${from}.`,
    someone: 'otro jugador',
  },
  en: {
    results: (phase: string) => `${phase}: results are in.`,
    retreat: 'You have a retreat to order.',
    build: 'You have builds or disbands to order.',
    orders: (phase: string) => `Your orders are due: ${phase}.`,
    deadline: (when: string) => ` Deadline: ${when}.`,
    draw: 'A draw vote is open: it is voted with the orders.',
    message: (from: string) => `New message from ${from}.`,
    someone: 'another player',
  },
} as const;

/** Whether `now` (this phone's clock) falls in the game's quiet hours. */
export function inQuietHours(settings: GameNotifySettings | undefined, now: Date): boolean {
  const q = settings?.quiet;
  if (q === undefined || q.from === q.to) return false;
  const h = now.getHours();
  return q.from < q.to ? h >= q.from && h < q.to : h >= q.from || h < q.to;
}

function when(ms: number, lang: Lang): string {
  return new Date(ms).toLocaleString(lang === 'es' ? 'es-ES' : 'en-GB', { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}

/** What changed for this player between two glances at the game, worded; null if nothing to tell. */
export function composeNotification(gameId: string, before: GameGlance, after: GameGlance, lang: Lang): GameNotification | null {
  const t = S[lang];
  const v = after.view;
  const base = `#/game/${gameId}`;
  const lines: string[] = [];
  let kind: GameNotification['kind'] | null = null;
  let url = base;
  const resolved = v.phases.length > before.view.phases.length ? v.phases.at(-1) : undefined;
  if (resolved !== undefined) {
    lines.push(t.results(phaseName({ phase: resolved.position.phase }, lang)));
    kind = 'results';
    url = `${base}/results`;
  }
  const c = v.current;
  const owes = c === undefined || v.status !== 'playing' ? [] : after.powers.filter((p) => c.required.includes(p) && !c.committed.includes(p));
  const newPhase = c !== undefined && (before.view.current?.key !== c.key || before.view.status !== v.status);
  if (c !== undefined && owes.length > 0 && newPhase) {
    const k = c.position.phase.kind;
    if (k === 'retreat') lines.push(t.retreat);
    else if (k === 'adjustment') lines.push(t.build);
    else lines.push(t.orders(phaseName(c.position, lang)) + (c.deadline > 0 ? t.deadline(when(c.deadline, lang)) : ''));
    if (
      k === 'movement' &&
      c.drawVoters.length > 0 &&
      after.powers.some((p) => c.drawVoters.includes(p)) &&
      resolved?.drawVotes !== undefined &&
      resolved.drawVotes.length > 0
    )
      lines.push(t.draw);
    kind ??= k === 'retreat' ? 'retreat' : k === 'adjustment' ? 'build' : 'orders';
    if (kind !== 'results') url = `${base}/board`;
  }
  const seen = new Set(before.incoming.map((m) => m.id));
  const fresh = after.incoming.filter((m) => !seen.has(m.id));
  if (fresh.length > 0) {
    const from = [...new Set(fresh.map((m) => (m.fromPower === undefined ? t.someone : powerName(m.fromPower, lang))))].join(', ');
    lines.push(t.message(from));
    if (kind === null) {
      kind = 'message';
      url = `${base}/press`;
    }
  }
  if (kind === null) return null;
  return { title: 'Pacto', body: lines.join(' '), tag: `pacto-game-${gameId}`, url, kind };
}
