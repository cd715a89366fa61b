// About and licences: the map's share-alike attribution must be shown wherever the map is.
import { STRINGS, type Lang } from './i18n';

export function About(props: { lang: Lang }) {
  const t = STRINGS[props.lang];
  return (
    <section className="about" aria-labelledby="about-title">
      <h2 id="about-title">{t.aboutTitle}</h2>
      <p className="attribution">{t.attribution}</p>
      <p>{t.mapLicence}</p>
      <p>
        <a href="https://creativecommons.org/licenses/by-sa/3.0/de/" rel="license noreferrer" target="_blank">
          {t.licenceLink}
        </a>
      </p>
      <p>{t.codeLicence}</p>
      <p className="muted">{t.offline}</p>
    </section>
  );
}
