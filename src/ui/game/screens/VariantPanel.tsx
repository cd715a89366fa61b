// The variant at a glance: its name, who plays which powers, neutral powers, closed Italy and the
// coin toss; under the "1914" rules the standing alliances and a form to declare or leave one.
import { useState } from 'react';
import type { Power } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import type { GameSession } from '../session';
import { phaseLabel, powerList } from './logic';
import { SCREEN_STRINGS } from './strings';
import { allianceChoices, variantInfo } from './variant-info';

export function VariantPanel(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const view = session.view;
  const info = variantInfo(view, lang);
  if (info === null) return null;
  return (
    <section className="variant-panel" aria-labelledby="variant-title" data-variant={info.id}>
      <h3 id="variant-title">{s.variantTitle}</h3>
      <p>
        {s.variant}: <strong>{info.name}</strong>
      </p>
      <p className="muted">{info.description}</p>
      <h4>{s.seatsTitle}</h4>
      <ul className="seats" data-seats={info.seats.length}>
        {info.seats.map((seat, i) => (
          <li key={seat.id} data-seat={seat.id}>
            {s.seatOf(i + 1)} ({seat.players.join(', ')}): {powerList(seat.powers, lang, s.none)}
          </li>
        ))}
      </ul>
      {info.neutral.length > 0 ? (
        <p data-neutral={info.neutral.join(',')}>
          {s.neutralPowers}: {powerList(info.neutral, lang, s.none)}
        </p>
      ) : null}
      {info.italyClosed ? <p data-italy-closed="">{s.italyClosed}</p> : null}
      {info.toss ? (
        <>
          <h4>{s.tossTitle}</h4>
          <p data-toss={info.toss.done ? (info.toss.winner === null ? 'none' : info.toss.winner.join('-')) : 'pending'}>
            {!info.toss.done
              ? s.tossPending(phaseLabel(info.toss.phase, lang))
              : info.toss.winner === null
                ? s.tossNone(phaseLabel(info.toss.phase, lang))
                : s.tossWon(powerList(info.toss.winner, lang, s.none), phaseLabel(info.toss.phase, lang))}
          </p>
        </>
      ) : null}
      {info.alliancesAllowed ? <Alliances session={session} lang={lang} /> : null}
    </section>
  );
}

function Alliances(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const t = STRINGS[lang];
  const view = session.view;
  const { mine, others } = allianceChoices(view, session.me.powers);
  const [as, setAs] = useState<Power | null>(null);
  const [members, setMembers] = useState<readonly Power[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const signer = as ?? mine[0] ?? null;
  const declare = session.declareAlliance;
  const canDeclare = declare !== undefined && signer !== null && view.current !== undefined && !view.result;
  const send = (yes: boolean): void => {
    if (!canDeclare || signer === null) return;
    if (members.length === 0) {
      setMessage(s.allianceNeedsTwo);
      return;
    }
    setMessage(null);
    declare
      .call(session, signer, [signer, ...members], yes)
      .then(() => setMessage(s.allianceDeclared))
      .catch((e: unknown) => setMessage(`${s.actionError}: ${e instanceof Error ? e.message : String(e)}`));
  };
  return (
    <div className="alliances">
      <h4>{s.alliancesTitle}</h4>
      <p className="muted">{s.alliancesExplain}</p>
      {view.alliances && view.alliances.length > 0 ? (
        <ul data-alliances={view.alliances.length}>
          {view.alliances.map((a) => (
            <li key={a.powers.join('-')}>{s.allianceSince(powerList(a.powers, lang, s.none), phaseLabel(a.since, lang))}</li>
          ))}
        </ul>
      ) : (
        <p data-alliances="0">{s.noAlliances}</p>
      )}
      {canDeclare ? (
        <form
          className="alliance-form"
          onSubmit={(e) => {
            e.preventDefault();
            send(true);
          }}
        >
          {mine.length > 1 ? (
            <label>
              {s.allianceAs}{' '}
              <select value={signer ?? ''} onChange={(e) => setAs(e.target.value as Power)} data-alliance-as="">
                {mine.map((p) => (
                  <option key={p} value={p}>
                    {t.powers[p]}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <fieldset>
            <legend>{s.allianceMembers}</legend>
            {[...mine.filter((p) => p !== signer), ...others].map((p) => (
              <label key={p} className="check">
                <input
                  type="checkbox"
                  data-alliance-member={p}
                  checked={members.includes(p)}
                  onChange={(e) => setMembers(e.target.checked ? [...members, p] : members.filter((x) => x !== p))}
                />{' '}
                {t.powers[p]}
              </label>
            ))}
          </fieldset>
          <div className="toolbar">
            <button type="submit" data-action="alliance-declare">
              {s.allianceDeclare}
            </button>
            <button type="button" className="secondary" data-action="alliance-leave" onClick={() => send(false)}>
              {s.allianceLeave}
            </button>
          </div>
        </form>
      ) : null}
      {message ? <p role="status">{message}</p> : null}
    </div>
  );
}
