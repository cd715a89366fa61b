// The home screen: this phone's games from the store alone (so it works offline), each with its
// variant, phase, the player's seat (its powers), whether orders are owed and unread press; and the ways in.
import { useEffect, useState } from 'react';
import type { PhaseKey } from '../../protocol';
import type { Power } from '../../rules';
import type { Device } from '../game/device';
import { asAppRecord, type AppGameRecord } from '../game/records';
import { STRINGS, phaseName, powerName, type Lang } from '../i18n';
import { APP_STRINGS } from '../lobby/strings';
import { TABLE_STRINGS } from '../game/table-strings';
import { seatLabel } from '../lobby/seat-label';
// Data only, imported alone: the rules engine stays out of the home screen's first load.
import { variantName } from '../../rules/variants/names';
import '../lobby/lobby.css';

export function phaseLabel(key: PhaseKey | undefined, lang: Lang): string | null {
  const m = key === undefined ? null : /^(\d+)-(spring|fall|winter)-(movement|retreat|adjustment)$/.exec(key);
  if (m === null) return null;
  return phaseName({ phase: { year: Number(m[1]), season: m[2] as 'spring', kind: m[3] as 'movement' } }, lang);
}

function GameItem(props: { game: AppGameRecord; lang: Lang }) {
  const { game, lang } = props;
  const t = APP_STRINGS[lang];
  const powers = (game.powers ?? []) as readonly Power[];
  const owes = (game.owes ?? []) as readonly Power[];
  const phase = phaseLabel(game.lastPhase, lang);
  const variant = typeof game.variant === 'string' ? variantName(game.variant) : undefined;
  const title = `${t.home.gameOf} ${game.creatorName || game.title || game.id.slice(0, 8)}`;
  const status =
    game.status === undefined || game.status === 'no-game' ? t.home.waitingData : game.status === 'lobby' || game.status === 'starting' ? t.home.lobby : phase;
  return (
    <li className="game-item" data-game={game.id}>
      <a href={`#/game/${game.id}`} aria-label={`${t.home.open}: ${title}`}>
        <strong>{title}</strong>
      </a>
      <span className="game-phase">{status}</span>
      {variant !== undefined ? (
        <span className="game-variant" data-variant={game.variant}>
          {t.home.variant}: {variant[lang]}
        </span>
      ) : null}
      {powers.length > 0 ? (
        <span className="game-powers" data-powers={powers.join(',')}>
          {t.home.you}: {seatLabel(powers, lang)}
        </span>
      ) : null}
      {game.status === 'playing' ? (
        <span className={owes.length > 0 ? 'home-badge owes' : 'home-badge'} data-owes={owes.length}>
          {owes.length > 0 ? `${t.home.owes}: ${owes.map((p) => powerName(p, lang)).join(', ')}` : t.home.sealed}
        </span>
      ) : null}
      {(game.unread ?? 0) > 0 ? (
        <span className="home-badge unread" data-unread={game.unread}>
          {game.unread} {t.home.unread}
        </span>
      ) : null}
    </li>
  );
}

/** `store`: the page's store once open (App gives it before the identity is ready). */
/** `onShown`: called once, after the first frame that shows the list (or that there are none). */
export function Home(props: { store: Pick<Device['store'], 'listGames'> | null; lang: Lang; onShown?: () => void }) {
  const { store, lang, onShown } = props;
  const t = APP_STRINGS[lang];
  const [games, setGames] = useState<AppGameRecord[] | null>(null);
  useEffect(() => {
    if (store === null) return;
    let live = true;
    const load = () =>
      void store.listGames().then(
        (list) =>
          live &&
          setGames(
            list
              .map(asAppRecord)
              .filter((g): g is AppGameRecord => g !== undefined)
              .sort((a, b) => (b.updated ?? b.created) - (a.updated ?? a.created)),
          ),
        () => live && setGames([]),
      );
    load();
    // The games stay open in the background (background.ts) and update their records as they go.
    const timer = setInterval(load, 5_000);
    // Another tab may be playing: refresh when this one comes back into view.
    const onVisible = () => document.visibilityState === 'visible' && load();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [store]);
  const listed = games !== null;
  useEffect(() => {
    if (!listed || onShown === undefined) return;
    // rAF runs before the frame that shows the list; the timeout, after it has painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(onShown, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [listed, onShown]);
  const ongoing = (games ?? []).filter((g) => g.status !== 'finished');
  const finished = (games ?? []).filter((g) => g.status === 'finished');
  return (
    <section className="home" aria-labelledby="home-title">
      <h2 id="home-title">{t.home.yourGames}</h2>
      <div className="toolbar">
        <a className="button" href="#/new" data-action="new-game">
          {t.nav.newGame}
        </a>
        <a className="button secondary" href="#/join" data-action="join">
          {t.nav.join}
        </a>
        <a className="button secondary" href="#/table" data-action="join-table">
          {TABLE_STRINGS[lang].joinAtTable}
        </a>
      </div>
      {games === null ? (
        <p className="muted">{t.home.loading}</p>
      ) : games.length === 0 ? (
        <p className="muted">{t.home.noGames}</p>
      ) : (
        <>
          {ongoing.length > 0 ? (
            <>
              <h3>{t.home.ongoing}</h3>
              <ul className="games ongoing">
                {ongoing.map((g) => (
                  <GameItem key={g.id} game={g} lang={lang} />
                ))}
              </ul>
            </>
          ) : null}
          {finished.length > 0 ? (
            <>
              <h3>{t.home.finished}</h3>
              <ul className="games finished">
                {finished.map((g) => (
                  <GameItem key={g.id} game={g} lang={lang} />
                ))}
              </ul>
            </>
          ) : null}
        </>
      )}
      <p className="visually-hidden">{STRINGS[lang].title}</p>
    </section>
  );
}
