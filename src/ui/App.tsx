// A first page: the starting board as text, in Spanish or English, derived from the rules engine.
// The playable app (issue 4) replaces it.
import { useState } from 'react';
import { POWERS, STANDARD_MAP, STARTING_POSITION, provinceOf, coastOf } from '../rules';
import type { Unit } from '../rules';
import { STRINGS, defaultLang, type Lang } from './i18n';

const COAST_NAMES: Record<Lang, Record<string, string>> = {
  es: { nc: 'costa norte', sc: 'costa sur', ec: 'costa este' },
  en: { nc: 'north coast', sc: 'south coast', ec: 'east coast' },
};

function unitText(unit: Unit, lang: Lang): string {
  const t = STRINGS[lang];
  const province = STANDARD_MAP.provinces[provinceOf(unit.loc)];
  const coast = coastOf(unit.loc);
  const where = (province?.name[lang] ?? unit.loc) + (coast ? ` (${COAST_NAMES[lang][coast]})` : '');
  return `${unit.type === 'A' ? t.army : t.fleet} — ${where}`;
}

export function App() {
  const [lang, setLang] = useState<Lang>(() => defaultLang(navigator.languages ?? [navigator.language]));
  const t = STRINGS[lang];
  const centres = STARTING_POSITION.centres;
  return (
    <main lang={lang} style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '0 auto', padding: 16 }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
        <h1>{t.title}</h1>
        <label>
          {t.language}{' '}
          <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} aria-label={t.language}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </label>
      </header>
      <p>{t.tagline}</p>
      <h2>
        {t.startingBoard}: {t.phase}
      </h2>
      {POWERS.map((power) => {
        const units = STARTING_POSITION.units.filter((u) => u.power === power);
        const owned = Object.values(centres).filter((p) => p === power).length;
        return (
          <section key={power} aria-label={t.powers[power]} data-power={power}>
            <h3>
              {t.powers[power]} — {owned} {t.centres}, {units.length} {t.units}
            </h3>
            <ul>
              {units.map((u) => (
                <li key={u.loc} data-loc={u.loc}>
                  {unitText(u, lang)}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <footer>
        <small>{t.attribution}</small>
      </footer>
    </main>
  );
}
