// Who has sealed (never what), the deadline with a live countdown, and once it has passed the
// vote to close the phase without the powers still missing.
import { useState } from 'react';
import { timeoutsDue } from '../../../protocol';
import type { Power } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import type { GameSession } from '../session';
import { countdown, hasDeadline as phaseHasDeadline, powerList, sealStatus } from './logic';
import { SCREEN_STRINGS } from './strings';

export function SealStatus(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  const [error, setError] = useState<string | null>(null);
  const c = session.view.current;
  if (!c) return null;
  const st = sealStatus(session.view);
  const hasDeadline = phaseHasDeadline(c);
  const left = countdown(c.deadline, session.now);
  const voter = session.me.powers.find((p) => c.active.includes(p));
  const due: Power[] = voter ? timeoutsDue(session.view, voter, session.now) : [];
  const votes = Object.entries(c.timeoutVotes) as [Power, readonly Power[]][];

  return (
    <section className="seal-status" aria-labelledby="seal-status-title">
      <h3 id="seal-status-title">{s.sealedTitle}</h3>
      <ul className="status-list">
        <li data-list="sealed">
          ✔ {s.sealedList}: {powerList(st.sealed, lang, s.none)}
        </li>
        <li data-list="missing">
          … {s.notSealedList}: {powerList(st.missing, lang, s.none)}
        </li>
        {st.revealed.length > 0 ? (
          <li data-list="revealed">
            {s.revealedList}: {powerList(st.revealed, lang, s.none)}
          </li>
        ) : null}
        {st.timedOut.length > 0 ? (
          <li data-list="timed-out">
            {s.timedOutList}: {powerList(st.timedOut, lang, s.none)}
          </li>
        ) : null}
      </ul>
      {hasDeadline ? (
        <p className="deadline">
          {s.deadline}: <time dateTime={new Date(c.deadline).toISOString()}>{new Date(c.deadline).toLocaleString(lang)}</time>
          {' · '}
          {left ? (
            <span className="countdown" role="timer" aria-label={s.timeLeft}>
              {s.timeLeft}: {left}
            </span>
          ) : (
            <strong className="past-deadline">{s.pastDeadline}</strong>
          )}
        </p>
      ) : (
        <p className="deadline">{s.noDeadline}</p>
      )}
      {votes.length > 0 ? <p className="muted">{votes.map(([p, by]) => `${s.timeoutVotes} ${t.powers[p]}: ${by.length}`).join(' · ')}</p> : null}
      {due.length > 0 ? (
        <button
          type="button"
          className="secondary"
          data-action="vote-timeout"
          onClick={() => session.voteTimeout(due).catch((e: unknown) => setError(`${s.actionError}: ${e instanceof Error ? e.message : String(e)}`))}
        >
          {s.voteTimeout} {powerList(due, lang, s.none)}
        </button>
      ) : null}
      {error ? (
        <p className="errors" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
