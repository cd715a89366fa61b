// Every order of a resolved phase with the adjudicator's verdict in words, grouped by power under
// its colour and name (and its player's, when known), so each line says whose order it was.
import { POWERS, explainResult, formatOrder } from '../../rules';
import type { OrderResult, Power } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { POWER_COLOURS } from '../map/colours';
import { locName } from './names';
import { ORDER_STRINGS } from './strings';

export function ResultList(props: {
  results: readonly OrderResult[];
  lang: Lang;
  /** The player holding each power, to name beside it. */
  players?: Readonly<Partial<Record<Power, string>>>;
  /** Powers listed first (the reader's own). */
  first?: readonly Power[];
}) {
  const { results, lang } = props;
  const t = STRINGS[lang];
  const o = ORDER_STRINGS[lang];
  const first = props.first ?? [];
  const order = [...POWERS.filter((p) => first.includes(p)), ...POWERS.filter((p) => !first.includes(p))];
  // Units left without orders are folded away, as there is nothing to explain about them.
  const unordered = results.filter((r) => r.reason?.kind === 'no-order');
  const given = results.filter((r) => r.reason?.kind !== 'no-order');
  const of = (p: Power) => given.filter((r) => r.order.power === p);
  const title = (p: Power) => (props.players?.[p] ? o.resultsOfPlayer(t.powers[p], props.players[p]!) : o.resultsOf(t.powers[p]));
  return (
    <section className="results" aria-label={t.resultsTitle}>
      <h3>{t.resultsTitle}</h3>
      {order
        .filter((p) => of(p).length > 0)
        .map((p) => (
          <div key={p} className="result-power" data-power={p}>
            <h4>
              <span className="swatch" style={{ background: POWER_COLOURS[p] }} aria-hidden="true" />
              {title(p)}
            </h4>
            <ul>
              {/* Failures first: they are what the players want explained. */}
              {[...of(p).filter((r) => !r.success), ...of(p).filter((r) => r.success)].map((r, i) => (
                <li key={i} className={r.success ? 'ok' : 'failed'} data-success={r.success ? 'yes' : 'no'} data-power={p}>
                  <span className="order-text">{formatOrder(r.order, lang)}</span> — <span className="why">{explainResult(r, lang, locName(lang))}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      {unordered.length > 0 ? (
        <details className="unordered">
          <summary>{`${t.heldWithoutOrders} (${unordered.length})`}</summary>
          {order
            .filter((p) => unordered.some((r) => r.order.power === p))
            .map((p) => (
              <p key={p} className="muted" data-power={p}>
                {t.powers[p]}:{' '}
                {unordered
                  .filter((r) => r.order.power === p)
                  .map((r) => formatOrder(r.order, lang))
                  .join(', ')}
              </p>
            ))}
        </details>
      ) : null}
    </section>
  );
}
