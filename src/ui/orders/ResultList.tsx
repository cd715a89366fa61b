// Every order of a resolved phase with the adjudicator's verdict in words.
import { explainResult, formatOrder } from '../../rules';
import type { OrderResult } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { locName } from './names';

export function ResultList(props: { results: readonly OrderResult[]; lang: Lang }) {
  const { results, lang } = props;
  const t = STRINGS[lang];
  // Failures first: they are what the players want explained. Units left without orders are
  // folded away, as there is nothing to explain about them.
  const unordered = results.filter((r) => r.reason?.kind === 'no-order');
  const given = results.filter((r) => r.reason?.kind !== 'no-order');
  const sorted = [...given.filter((r) => !r.success), ...given.filter((r) => r.success)];
  return (
    <section className="results" aria-label={t.resultsTitle}>
      <h3>{t.resultsTitle}</h3>
      <ul>
        {sorted.map((r, i) => (
          <li key={i} className={r.success ? 'ok' : 'failed'} data-success={r.success ? 'yes' : 'no'}>
            <span className="order-text">{formatOrder(r.order, lang)}</span> — <span className="why">{explainResult(r, lang, locName(lang))}</span>
          </li>
        ))}
      </ul>
      {unordered.length > 0 ? (
        <details className="unordered">
          <summary>{`${t.heldWithoutOrders} (${unordered.length})`}</summary>
          <p className="muted">{unordered.map((r) => formatOrder(r.order, lang)).join(', ')}</p>
        </details>
      ) : null}
    </section>
  );
}
