// The route #/game/<id>: the lobby until the game starts, then the game screens
// (src/ui/game/screens/, which read only the GameSession), loaded lazily to keep the first load small.
import type { GameTabName } from '../home/route';
import { lazy, Suspense } from 'react';
import type { Lang } from '../i18n';
import { Lobby } from '../lobby/Lobby';
import { APP_STRINGS } from '../lobby/strings';
import type { Device } from './device';
import { useGameSession } from './useGameSession';

// The QR encoder and reader load only with the table panel, after the lobby or the board.
const TablePanel = lazy(() => import('./TablePairing').then((m) => ({ default: m.TablePanel })));
const GameScreen = lazy(() => import('./screens/GameScreen').then((m) => ({ default: m.GameScreen })));

export function GamePage(props: { gameId: string; lang: Lang; device?: Device; tab?: GameTabName }) {
  const t = APP_STRINGS[props.lang].game;
  const load = useGameSession(props.gameId, props.device);
  if (load.state === 'loading') return <p role="status">{t.loading}</p>;
  if (load.state === 'missing') return <p role="alert">{t.missing}</p>;
  if (load.state === 'error')
    return (
      <p role="alert">
        {t.error}: {load.error}
      </p>
    );
  const session = load.session;
  const status = session.view.status;
  // Table mode (pairing phones by QR codes, no server) sits below the lobby and the game alike:
  // a phone can be paired, or paired again after a drop, at any point of the game.
  const table = (
    <Suspense fallback={null}>
      <TablePanel
        gameId={session.gameId}
        device={load.device}
        lang={props.lang}
        view={session.view}
        open={session.table && status !== 'playing' && status !== 'finished'}
      />
    </Suspense>
  );
  if (status === 'no-game' || status === 'lobby' || status === 'starting' || status === 'incompatible' || status === 'forked' || status === 'lot')
    return (
      <>
        {table}
        <Lobby session={session} lang={props.lang} />
      </>
    );
  return (
    <>
      <Suspense fallback={<p role="status">{t.loading}</p>}>
        <GameScreen session={session} lang={props.lang} {...(props.tab === undefined ? {} : { tab: props.tab })} />
      </Suspense>
      {table}
    </>
  );
}
