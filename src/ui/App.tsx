// The app for now: a header with the language switch, the practice board from the starting
// position, and the About section. The lobby and game screens plug in here when the protocol lands.
import { useEffect, useState } from 'react';
import { STARTING_POSITION } from '../rules';
import { About } from './About';
import { LANGS, STRINGS, defaultLang, type Lang } from './i18n';
import { PracticeBoard } from './practice/PracticeBoard';
import './styles.css';

export function App() {
  const [lang, setLang] = useState<Lang>(() => defaultLang(navigator.languages ?? [navigator.language]));
  const t = STRINGS[lang];
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <div className="app" lang={lang}>
      <header className="app-header">
        <h1>{t.title}</h1>
        <label>
          <span className="visually-hidden">{t.language}</span>
          <select value={lang} onChange={(e) => setLang(e.target.value as Lang)} aria-label={t.language}>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {t.languageNames[l]}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main>
        <p className="tagline">{t.tagline}</p>
        <PracticeBoard start={STARTING_POSITION} lang={lang} />
        <About lang={lang} />
      </main>
    </div>
  );
}
