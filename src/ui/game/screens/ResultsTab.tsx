// The latest resolved phase: the board animating into its new position with bounces, cut
// supports and dislodgements marked, and every failed order explained in words.
import { useState } from 'react';
import type { Lang } from '../../i18n';
import { ResultList } from '../../orders/ResultList';
import type { GameSession } from '../session';
import { CentreChanges } from '../../orders/CentreChanges';
import { AnimatedBoard } from './AnimatedBoard';
import { playerNames } from './facts';
import { phaseLabel, positionAfter, powerList } from './logic';
import { SCREEN_STRINGS } from './strings';
import { Unordered } from './Unordered';

export function ResultsTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const [replay, setReplay] = useState(0);
  const phases = session.view.phases;
  const index = phases.length - 1;
  const phase = phases[index];
  const after = positionAfter(session.view, index);
  if (!phase || !after) return <p className="muted">{s.noResults}</p>;
  return (
    <div className="results-tab">
      <h3 className="phase" data-results-phase={phase.key}>
        {s.resultsOf} {phaseLabel(phase.key, lang)}
      </h3>
      <div className="practice-layout">
        <AnimatedBoard phase={phase} after={after} lang={lang} replay={replay} />
        <div className="side">
          <div className="toolbar">
            <button type="button" className="secondary" data-action="replay" onClick={() => setReplay((n) => n + 1)}>
              {s.replay}
            </button>
          </div>
          {phase.civilDisorder.length > 0 ? (
            <p className="muted">
              {s.civilDisorder} {powerList(phase.civilDisorder, lang, s.none)}
            </p>
          ) : null}
          <CentreChanges before={phase.position} after={after} lang={lang} />
          <Unordered phase={phase} lang={lang} />
          <ResultList results={phase.results} lang={lang} players={playerNames(session.view)} first={session.me.powers} />
        </div>
      </div>
    </div>
  );
}
