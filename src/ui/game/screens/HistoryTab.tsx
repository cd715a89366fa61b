// Every resolved phase, offline: a slider (and buttons) to step through the boards, the orders
// given and their results; the whole game exported as text (rulebook notation) or JSON.
import { useEffect, useMemo, useState } from 'react';
import { POWERS, formatOrder } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import { Board } from '../../map/Board';
import { ResultList } from '../../orders/ResultList';
import type { GameSession } from '../session';
import { playerNames } from './facts';
import { historyJson, historyText, phaseLabel } from './logic';
import { SCREEN_STRINGS } from './strings';
import { Unordered } from './Unordered';
import { PracticeFrom } from './PracticeFrom';

function useBlobUrl(text: string, type: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const u = URL.createObjectURL(new Blob([text], { type }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [text, type]);
  return url;
}

export function HistoryTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  const phases = session.view.phases;
  const [picked, setPicked] = useState<number | null>(null);
  const index = Math.min(picked ?? phases.length - 1, phases.length - 1);
  const text = useMemo(() => historyText(session.view, lang), [session.view, lang]);
  const json = useMemo(() => historyJson(session.view), [session.view]);
  const textUrl = useBlobUrl(text, 'text/plain;charset=utf-8');
  const jsonUrl = useBlobUrl(json, 'application/json');
  const phase = phases[index];
  const short = session.gameId.slice(0, 8);

  return (
    <div className="history-tab">
      <h3>{s.historyTitle}</h3>
      {phase ? (
        <>
          <div className="history-controls">
            <button
              type="button"
              className="secondary small"
              data-action="history-prev"
              aria-label={s.previous}
              disabled={index <= 0}
              onClick={() => setPicked(Math.max(0, index - 1))}
            >
              ◀
            </button>
            <input
              type="range"
              min={0}
              max={phases.length - 1}
              step={1}
              value={index}
              aria-label={s.phaseSlider}
              aria-valuetext={`${s.phaseOf(index + 1, phases.length)}: ${phaseLabel(phase.key, lang)}`}
              onChange={(e) => setPicked(Number(e.target.value))}
            />
            <button
              type="button"
              className="secondary small"
              data-action="history-next"
              aria-label={s.next}
              disabled={index >= phases.length - 1}
              onClick={() => setPicked(Math.min(phases.length - 1, index + 1))}
            >
              ▶
            </button>
          </div>
          <p className="phase" data-history-phase={phase.key}>
            {s.phaseOf(index + 1, phases.length)}: {phaseLabel(phase.key, lang)}
          </p>
          <PracticeFrom
            key={phase.key}
            lang={lang}
            choices={[
              { label: s.practiceFromPhase, position: phase.position },
              ...(session.view.position ? [{ label: s.practiceFromNow, position: session.view.position }] : []),
            ]}
          />
          <div className="practice-layout">
            <Board position={phase.position} lang={lang} orders={phase.results.map((r) => r.order)} results={phase.results} />
            <div className="side">
              <section className="orders-given" aria-label={s.ordersGiven}>
                <h4>{s.ordersGiven}</h4>
                {POWERS.every((p) => (phase.orders[p] ?? []).length === 0) ? <p className="muted">{s.noOrdersGiven}</p> : null}
                {POWERS.filter((p) => (phase.orders[p] ?? []).length > 0).map((p) => (
                  <p key={p} data-power={p}>
                    <strong>{t.powers[p]}:</strong> <span className="order-text">{(phase.orders[p] ?? []).map((o) => formatOrder(o, lang)).join('; ')}</span>
                  </p>
                ))}
              </section>
              <Unordered phase={phase} lang={lang} />
              <ResultList results={phase.results} lang={lang} players={playerNames(session.view)} first={session.me.powers} />
            </div>
          </div>
        </>
      ) : (
        <p className="muted">{s.noResults}</p>
      )}
      <div className="toolbar exports">
        <a className="button" href={textUrl} download={`pacto-${short}.txt`} data-export="text">
          {s.exportText}
        </a>
        <a className="button" href={jsonUrl} download={`pacto-${short}.json`} data-export="json">
          {s.exportJson}
        </a>
      </div>
      <details className="export-preview">
        <summary>{s.exportPreview}</summary>
        <pre aria-label={s.gameText}>{text}</pre>
      </details>
    </div>
  );
}
