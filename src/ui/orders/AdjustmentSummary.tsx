// Winter at a glance: per power "+2 builds (Vienna, Budapest free)" or "−1 removal", the player's
// powers first with how many they have ordered; the power's colour beside its name.
import type { GameMap, Order, Position, Power } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { POWER_COLOURS } from '../map/colours';
import { adjustments, type Adjustment } from './adjustments';
import { locName } from './names';
import { ORDER_STRINGS } from './strings';

export function adjustmentText(a: Adjustment, lang: Lang): string {
  const o = ORDER_STRINGS[lang];
  return a.delta > 0 ? o.builds(a.delta, a.free.map(locName(lang)).join(', ')) : o.removals(-a.delta);
}

export function AdjustmentSummary(props: { position: Position; lang: Lang; mine: readonly Power[]; draft?: readonly Order[]; map?: GameMap }) {
  const { position, lang, mine } = props;
  const t = STRINGS[lang];
  const o = ORDER_STRINGS[lang];
  const all = adjustments(position, undefined, props.draft ?? [], props.map);
  if (all.length === 0) return null;
  const sorted = [...all.filter((a) => mine.includes(a.power)), ...all.filter((a) => !mine.includes(a.power))];
  return (
    <section className="adjustments" aria-labelledby="adjustments-title">
      <h3 id="adjustments-title">{o.adjustmentsTitle}</h3>
      <ul>
        {sorted.map((a) => (
          <li key={a.power} data-power={a.power} data-delta={a.delta} className={mine.includes(a.power) ? 'mine' : undefined}>
            <span className="swatch" style={{ background: POWER_COLOURS[a.power] }} aria-hidden="true" />
            <strong>{t.powers[a.power]}</strong>: {adjustmentText(a, lang)}
            {mine.includes(a.power) ? <span className="muted"> · {o.ordered(a.drafted, Math.abs(a.delta))}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
