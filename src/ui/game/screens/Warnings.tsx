// Hash mismatches and misconduct, never folded away: they mean a phone disagrees about the board or
// a player cheated, which everybody at the table must see. The list sits on top of every tab but
// the board of an open phase, where it sits below the board (one appearing while a player taps
// must not move the board under the finger); the header's mark (WarningsMark) says it is there.
import type { GameView } from '../../../protocol';
import type { Lang } from '../../i18n';
import { phaseLabel, powerList, powersOfKey, warningCount } from './logic';
import { SCREEN_STRINGS } from './strings';

export function Warnings(props: { view: GameView; lang: Lang }) {
  const { view, lang } = props;
  const s = SCREEN_STRINGS[lang];
  if (warningCount(view) === 0) return null;
  const who = (key: string): string => {
    const name = view.players.find((p) => p.key === key)?.name;
    const powers = powersOfKey(view, key);
    const base = name ?? `${s.someone} ${key.slice(0, 8)}`;
    return powers.length > 0 ? `${base} (${powerList(powers, lang, '')})` : base;
  };
  return (
    <section className="warnings" id="warnings" role="alert" aria-labelledby="warnings-title">
      <h3 id="warnings-title">⚠ {s.warningsTitle}</h3>
      <ul>
        {view.hashMismatches.map((m, i) => (
          <li key={`h${i}`} data-warning="hash-mismatch">
            {s.hashMismatch(who(m.author), phaseLabel(m.phase, lang))}
          </li>
        ))}
        {view.misconduct.map((m, i) => (
          <li key={`m${i}`} data-warning={m.kind}>
            {who(m.author)} {(s.misconduct as Readonly<Record<string, string>>)[m.kind] ?? m.kind}
            {m.phase ? ` (${phaseLabel(m.phase, lang)})` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The header's mark of the warnings: "⚠ 2", which scrolls to the list. Laid over the header's
 * corner (screens.css), it takes no room, so its coming never moves anything.
 */
export function WarningsMark(props: { view: GameView; lang: Lang }) {
  const n = warningCount(props.view);
  if (n === 0) return null;
  const title = SCREEN_STRINGS[props.lang].warningsTitle;
  return (
    <button
      type="button"
      className="warnings-mark"
      data-warnings={n}
      aria-label={`${title}: ${n}`}
      onClick={() => document.getElementById('warnings')?.scrollIntoView({ block: 'center' })}
    >
      ⚠ {n}
    </button>
  );
}
