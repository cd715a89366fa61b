// Units that held because their power's sealed orders left them out ("1914" rules list them).
import type { ResolvedPhase } from '../../../protocol';
import { formatUnit } from '../../../rules';
import type { Lang } from '../../i18n';
import { SCREEN_STRINGS } from './strings';

export function Unordered(props: { phase: ResolvedPhase; lang: Lang }) {
  const { phase, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const locs = phase.unordered ?? [];
  if (locs.length === 0) return null;
  const units = locs.map((loc) => {
    const unit = phase.position.units.find((u) => u.loc === loc);
    return unit === undefined ? loc : formatUnit(unit, lang);
  });
  return (
    <p className="unordered" data-unordered={locs.length}>
      {s.unorderedTitle}: {units.join(', ')}
    </p>
  );
}
