// Hash mismatches and misconduct, always on top and never folded away: they mean a phone
// disagrees about the board or a player cheated, which everybody at the table must see.
import type { GameView } from '../../../protocol';
import type { Lang } from '../../i18n';
import { phaseLabel, powerList, powersOfKey } from './logic';
import { SCREEN_STRINGS } from './strings';

export function Warnings(props: { view: GameView; lang: Lang }) {
  const { view, lang } = props;
  const s = SCREEN_STRINGS[lang];
  if (view.hashMismatches.length === 0 && view.misconduct.length === 0) return null;
  const who = (key: string): string => {
    const name = view.players.find((p) => p.key === key)?.name;
    const powers = powersOfKey(view, key);
    const base = name ?? `${s.someone} ${key.slice(0, 8)}`;
    return powers.length > 0 ? `${base} (${powerList(powers, lang, '')})` : base;
  };
  return (
    <section className="warnings" role="alert" aria-labelledby="warnings-title">
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
