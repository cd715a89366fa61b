// The game as a whole: how it ended (or the short-game year it ends in), the centre chart, draw
// votes and concession with a confirmation.
import { useState } from 'react';
import type { Power } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import type { GameSession } from '../session';
import { CentreChart } from './CentreChart';
import { drawPeople, type Person } from './facts';
import { centreSeries, drawState, phaseLabel, powerList } from './logic';
import { SCREEN_STRINGS } from './strings';
import { NetworkSettings } from './NetworkSettings';
import { NotifySettings } from './NotifySettings';
import { VariantPanel } from './VariantPanel';

export function GameTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  const view = session.view;
  const [confirming, setConfirming] = useState<Power | null>(null);
  const [error, setError] = useState<string | null>(null);
  const draw = drawState(view, session.me.powers, session.drawVotes);
  // Counted by people, the survivors who vote: a player with three powers is one vote.
  const ballot = drawPeople(view, session.me.key);
  const named = (ps: readonly Person[]): string => ps.map((p) => `${p.me ? s.you : p.name} (${powerList(p.powers, lang, '')})`).join(', ');
  const c = view.current;
  const run = (p: Promise<void>): void => {
    setError(null);
    p.catch((e: unknown) => setError(`${s.actionError}: ${e instanceof Error ? e.message : String(e)}`));
  };
  const endYear = view.settings?.endYear;
  // Newer protocol versions say how a victory was won (a two-player side, seed 001's alliance).
  const by = (view.result as { readonly by?: string } | undefined)?.by;

  return (
    <div className="game-tab">
      {view.result ? (
        <section className="game-result" aria-labelledby="game-result-title" data-result={view.result.kind}>
          <h3 id="game-result-title">
            {s.gameOver}: {s.result[view.result.kind]}
            {by === 'seat' || by === 'alliance' ? ` (${s.victoryBy[by]})` : ''}
          </h3>
          <p>
            {view.result.winners.length === 1 ? s.winner : s.winners}: <strong>{powerList(view.result.winners, lang, s.none)}</strong> ·{' '}
            {phaseLabel(view.result.phase, lang)}
          </p>
        </section>
      ) : null}
      <VariantPanel session={session} lang={lang} />
      {endYear !== null && endYear !== undefined ? <p className="short-game">{s.shortGame(endYear)}</p> : null}
      <CentreChart series={centreSeries(view)} lang={lang} />
      {c && !view.result ? (
        <>
          <section className="draw" aria-labelledby="draw-title">
            <h3 id="draw-title">{s.drawTitle}</h3>
            <p className="muted">{s.drawExplain}</p>
            <p className="muted">{s.drawSecret}</p>
            {ballot.last !== undefined ? (
              <p data-draw-yes={ballot.last.yes.length} data-draw-of={ballot.last.of} role="status">
                {s.drawCommitted(ballot.last.yes.length, ballot.last.of)}
                {ballot.last.yes.length > 0 ? `: ${named(ballot.last.yes)}` : ''} · {phaseLabel(ballot.last.phase, lang)}
              </p>
            ) : null}
            {draw.mineVoters.length > 0 && !draw.open ? <p role="status">{s.drawClosed}</p> : null}
            {draw.mineVoters.length > 0 && draw.open ? (
              <>
                {draw.mineVoted ? <p role="status">✔ {s.drawVoted}</p> : null}
                <div className="toolbar">
                  <button type="button" data-action="draw-yes" onClick={() => run(session.voteDraw(true))}>
                    {s.drawYes}
                  </button>
                  <button type="button" className="secondary" data-action="draw-no" onClick={() => run(session.voteDraw(false))}>
                    {s.drawNo}
                  </button>
                </div>
              </>
            ) : null}
          </section>
          {draw.mineVoters.length > 0 ? (
            <section className="concede" aria-labelledby="concede-title">
              <h3 id="concede-title">{s.concedeTitle}</h3>
              {confirming ? (
                <div role="alertdialog" aria-labelledby="concede-q" className="confirm">
                  <p id="concede-q">{s.concedeConfirm(t.powers[confirming])}</p>
                  <div className="toolbar">
                    <button
                      type="button"
                      className="danger"
                      data-action="concede-confirm"
                      onClick={() => {
                        run(session.concede(confirming));
                        setConfirming(null);
                      }}
                    >
                      {s.concedeYes}
                    </button>
                    <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                      {s.cancel}
                    </button>
                  </div>
                </div>
              ) : (
                <div className="toolbar">
                  {draw.mineVoters.map((p) => (
                    <button key={p} type="button" className="secondary" data-action="concede" onClick={() => setConfirming(p)}>
                      {s.concede} {t.powers[p]}
                    </button>
                  ))}
                </div>
              )}
            </section>
          ) : null}
        </>
      ) : null}
      {error ? (
        <p className="errors" role="alert">
          {error}
        </p>
      ) : null}
      <NotifySettings session={session} lang={lang} />
      <NetworkSettings session={session} lang={lang} />
    </div>
  );
}
