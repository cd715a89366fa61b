// The drafted orders in text, grouped by power, in the player's language, each removable; and the
// units still without an order, so nobody holds by accident.
import { POWERS, formatOrder, formatUnit } from '../../rules';
import type { Order, Position, Power } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { draftKey, unitsWithoutOrders, type Draft } from './draft';

export function OrderList(props: {
  draft: Draft;
  position: Position;
  powers: readonly Power[];
  lang: Lang;
  onRemove?: (key: string) => void;
  onClearAll?: () => void;
}) {
  const { draft, position, powers, lang } = props;
  const t = STRINGS[lang];
  const missing = unitsWithoutOrders(position, draft, powers);
  const byPower = (p: Power): Order[] => draft.filter((o) => o.power === p);
  return (
    <section className="order-list" aria-label={t.ordersTitle}>
      <h3>{t.ordersTitle}</h3>
      {draft.length === 0 ? <p className="muted">{t.noOrders}</p> : null}
      {POWERS.filter((p) => byPower(p).length > 0).map((p) => (
        <div key={p} data-power={p}>
          <h4>{t.powers[p]}</h4>
          <ul>
            {byPower(p).map((o) => {
              const text = formatOrder(o, lang);
              return (
                <li key={draftKey(o)} data-order={draftKey(o)}>
                  <span className="order-text">{text}</span>
                  {props.onRemove ? (
                    <button type="button" className="small secondary" aria-label={`${t.removeOrder}: ${text}`} onClick={() => props.onRemove?.(draftKey(o))}>
                      ✕
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {draft.length > 0 && props.onClearAll ? (
        <button type="button" className="secondary" onClick={props.onClearAll}>
          {t.clearAll}
        </button>
      ) : null}
      {missing.length > 0 ? (
        <p className="muted without-orders">
          {t.withoutOrders} {missing.map((u) => formatUnit(u, lang)).join(', ')}
        </p>
      ) : null}
    </section>
  );
}
