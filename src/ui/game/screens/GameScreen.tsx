// The in-game screen: a header with the phase, this player's powers, the network and the
// countdown; warnings that are never hidden (Warnings.tsx says where); and five sections (board, results, history, press,
// game). Reads only the GameSession and calls its actions.
import { RelayStatus } from '../RelayStatus';
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Lang } from '../../i18n';
import type { GameSession } from '../session';
import { BoardTab } from './BoardTab';
import { GameTab } from './GameTab';
import { HistoryTab } from './HistoryTab';
import { countdown, hasDeadline, phaseLabel, powerList, pressEnabled } from './logic';
import { PressTab } from './PressTab';
import { ResultsTab } from './ResultsTab';
import { SCREEN_STRINGS } from './strings';
import { WaitingLine } from './WaitingLine';
import { Warnings, WarningsMark } from './Warnings';
import './screens.css';

type Tab = 'board' | 'results' | 'history' | 'press' | 'game';

export function GameScreen({ session, lang, tab: initialTab }: { session: GameSession; lang: Lang; tab?: Tab }) {
  const s = SCREEN_STRINGS[lang];
  const view = session.view;
  const press = pressEnabled(view);
  const tabs: Tab[] = ['board', 'results', 'history', ...(press ? (['press'] as const) : []), 'game'];
  const [tab, setTab] = useState<Tab>(initialTab ?? (view.result ? 'game' : 'board'));
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  // A phase that resolves while the screen is open is shown as results; the end of the game as its result.
  const resolved = useRef(view.phases.length);
  const ended = useRef(view.result !== undefined);
  useEffect(() => {
    if (view.result && !ended.current) setTab('game');
    else if (view.phases.length > resolved.current) setTab('results');
    resolved.current = view.phases.length;
    ended.current = view.result !== undefined;
  }, [view.phases.length, view.result]);

  const c = view.current;
  // A phase with a deadline keeps its countdown line after it passes (saying so): the line going
  // would move the board up under the fingers of the players tapping at the last second.
  const left = c && hasDeadline(c) ? countdown(c.deadline, session.now) : undefined;
  const shown: Tab = tabs.includes(tab) ? tab : 'board';
  // On the board of an open phase the warnings go below it: one appearing must not move the board.
  const warningsBelow = shown === 'board' && c !== undefined;

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>): void => {
    const i = tabs.indexOf(shown);
    const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i + tabs.length - 1) % tabs.length] : undefined;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  if (view.status === 'incompatible') {
    return (
      <section className="game-screen">
        <p role="alert">
          {s.incompatible}: {view.incompatible.reason} ({view.incompatible.game} / {view.incompatible.ours})
        </p>
      </section>
    );
  }
  if (view.status !== 'playing' && view.status !== 'finished') {
    return (
      <section className="game-screen">
        <p className="muted">{s.notStarted}</p>
      </section>
    );
  }

  return (
    <section className="game-screen" aria-labelledby="game-phase" data-game={session.gameId}>
      <header className="game-header">
        <WarningsMark view={view} lang={lang} />
        <h2 id="game-phase" data-phase={c?.key ?? view.result?.phase ?? ''}>
          {c ? phaseLabel(c.key, lang) : s.gameOver}
        </h2>
        <p className="game-meta">
          <span>{session.me.powers.length > 0 ? `${s.playing}: ${powerList(session.me.powers, lang, '')}` : s.spectator}</span>
          <span className={session.net.online ? 'net online' : 'net offline'} data-peers={session.net.peers}>
            {session.net.online ? '●' : '○'} {session.net.online ? s.net.online : s.net.offline} · {s.net.peers(session.net.peers)}
            {session.net.peers > 0 ? ` · ${session.net.synced ? s.net.synced : s.net.syncing}` : ''}
          </span>
          <RelayStatus net={session.net} lang={lang} />
          {left === null ? (
            <span className="header-countdown past-deadline">{s.pastDeadline}</span>
          ) : left !== undefined ? (
            <span className="header-countdown">
              {s.timeLeft}: {left}
            </span>
          ) : null}
        </p>
        <WaitingLine session={session} lang={lang} />
      </header>
      {warningsBelow ? null : <Warnings view={view} lang={lang} />}
      <div className="tabs" role="tablist" aria-label={s.tabsLabel}>
        {tabs.map((id) => (
          <button
            key={id}
            ref={(el) => {
              if (el) tabRefs.current.set(id, el);
              else tabRefs.current.delete(id);
            }}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={shown === id}
            aria-controls={`panel-${id}`}
            tabIndex={shown === id ? 0 : -1}
            className={shown === id ? 'tab active' : 'tab'}
            data-tab={id}
            onClick={() => setTab(id)}
            onKeyDown={onTabKey}
            aria-label={id === 'press' && session.unread > 0 ? `${s.tabs[id]}, ${s.unread(session.unread)}` : undefined}
          >
            {s.tabs[id]}
            {id === 'press' && session.unread > 0 ? (
              <span className="badge" data-unread={session.unread}>
                {session.unread}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${shown}`} aria-labelledby={`tab-${shown}`} className="tab-panel">
        {shown === 'board' ? c ? <BoardTab session={session} lang={lang} /> : <GameTab session={session} lang={lang} /> : null}
        {shown === 'results' ? <ResultsTab session={session} lang={lang} /> : null}
        {shown === 'history' ? <HistoryTab session={session} lang={lang} /> : null}
        {shown === 'press' ? <PressTab session={session} lang={lang} /> : null}
        {shown === 'game' ? <GameTab session={session} lang={lang} /> : null}
      </div>
      {warningsBelow ? <Warnings view={view} lang={lang} /> : null}
    </section>
  );
}
