// The practice board: a private sandbox on the phone. Orders for every power by tapping or typing,
// the adjudicator's verdict on the map and in words, then the next phase or a fresh start.
import { useReducer, useState } from 'react';
import { POWERS, STANDARD_MAP } from '../../rules';
import type { Position } from '../../rules';
import { STRINGS, phaseName, type Lang } from '../i18n';
import { Board } from '../map/Board';
import { OrderEntry } from '../orders/OrderEntry';
import { CentreChanges } from '../orders/CentreChanges';
import { ResultList } from '../orders/ResultList';
import { practiceFrom, practiceReducer } from './practice';

export function PracticeBoard(props: { start: Position; lang: Lang }) {
  const { lang } = props;
  const t = STRINGS[lang];
  const [state, dispatch] = useReducer(practiceReducer, props.start, practiceFrom);
  const [resets, setResets] = useState(0); // a reset also drops a half-entered order
  const verdict = state.verdict;
  const { season, year, kind } = state.position.phase;

  return (
    <section className="practice" aria-labelledby="practice-title">
      <h2 id="practice-title">{t.practiceTitle}</h2>
      <p className="muted">{t.practiceIntro}</p>
      <p className="phase" data-phase={`${season}-${year}-${kind}`}>
        {phaseName(state.position, lang)}
      </p>
      {verdict ? (
        <div className="practice-layout">
          <Board position={verdict.before} lang={lang} orders={verdict.results.map((r) => r.order)} results={verdict.results} />
          <div className="side">
            <div className="toolbar">
              <button type="button" data-action="next-phase" onClick={() => dispatch({ type: 'next' })}>
                {t.nextPhase} ({phaseName(verdict.next, lang)})
              </button>
              <button type="button" className="secondary" onClick={() => dispatch({ type: 'back' })}>
                {t.back}
              </button>
            </div>
            <CentreChanges before={verdict.before} after={verdict.next} lang={lang} />
            <ResultList results={verdict.results} lang={lang} />
          </div>
        </div>
      ) : (
        <OrderEntry
          key={resets}
          position={state.position}
          map={STANDARD_MAP}
          powers={POWERS}
          draft={state.draft}
          onDraft={(action) => dispatch({ type: 'draft', action })}
          lang={lang}
        >
          <div className="toolbar">
            <button type="button" data-action="adjudicate" onClick={() => dispatch({ type: 'adjudicate' })}>
              {t.adjudicate}
            </button>
            <button
              type="button"
              className="secondary"
              data-action="reset"
              onClick={() => {
                setResets((n) => n + 1);
                dispatch({ type: 'reset' });
              }}
            >
              {t.reset}
            </button>
          </div>
        </OrderEntry>
      )}
      {state.played.length > 0 ? (
        <p className="muted">
          {t.phasesPlayed}: {state.played.map((a) => phaseName(a.before, lang)).join(' · ')}
        </p>
      ) : null}
    </section>
  );
}
