// The supply centres a phase moved from one owner to another (in practice, after a Fall), named
// under the results of the game's Results tab and of the practice board.
import type { Position, Power, ProvinceId } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { POWER_COLOURS } from '../map/colours';
import { locName } from './names';
import { ORDER_STRINGS } from './strings';

export interface CentreChange {
  readonly province: ProvinceId;
  readonly from?: Power;
  readonly to?: Power;
}

/** Supply centres whose owner differs between two boards, by province. */
export function centreChanges(before: Position, after: Position): CentreChange[] {
  const provinces = [...new Set([...Object.keys(before.centres), ...Object.keys(after.centres)])].sort();
  return provinces.flatMap((province) => {
    const from = before.centres[province];
    const to = after.centres[province];
    return from === to ? [] : [{ province, ...(from ? { from } : {}), ...(to ? { to } : {}) }];
  });
}

/** "Serbia: unowned → Austria", one line a centre; nothing when no centre changed hands. */
export function CentreChanges(props: { before: Position; after: Position; lang: Lang }) {
  const { lang } = props;
  const changes = centreChanges(props.before, props.after);
  if (changes.length === 0) return null;
  const o = ORDER_STRINGS[lang];
  const owner = (p: Power | undefined) =>
    p ? (
      <span className="centre-owner" data-power={p}>
        <span className="swatch" style={{ background: POWER_COLOURS[p] }} aria-hidden="true" />
        {STRINGS[lang].powers[p]}
      </span>
    ) : (
      <span className="centre-owner">{o.unownedCentre}</span>
    );
  return (
    <section className="centre-changes" aria-label={o.centresChanged} data-changes={changes.length}>
      <h4>{o.centresChanged}</h4>
      <ul>
        {changes.map((ch) => (
          <li key={ch.province} data-centre={ch.province} data-from={ch.from ?? ''} data-to={ch.to ?? ''}>
            <strong>{locName(lang)(ch.province)}</strong>: {owner(ch.from)} → {owner(ch.to)}
          </li>
        ))}
      </ul>
    </section>
  );
}
