// A text box for players used to paper: orders in the rulebook notations, read by the rules
// engine's parser (readTypedOrders in entry.ts), with each line not taken explained: unreadable,
// or naming a unit of a power this player does not hold.
import { useState } from 'react';
import type { GameMap, Order, Position, Power, RuleOptions } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { readTypedOrders } from './entry';

export function OrderText(props: {
  position: Position;
  powers: readonly Power[];
  lang: Lang;
  map: GameMap;
  rules?: Partial<RuleOptions>;
  onOrders: (orders: readonly Order[]) => void;
}) {
  const { position, powers, lang } = props;
  const t = STRINGS[lang];
  const [text, setText] = useState('');
  const [power, setPower] = useState<Power>(powers[0] ?? 'austria');
  const [errors, setErrors] = useState<string[]>([]);
  const [added, setAdded] = useState(0);

  const submit = (): void => {
    // Each order goes to the power of the unit it names; units of powers not held are refused.
    const parsed = readTypedOrders(text, { position, powers, draft: [], map: props.map, ...(props.rules ? { rules: props.rules } : {}) }, power, lang);
    setErrors(parsed.errors.map((e) => `${t.line} ${e.line} («${e.text}»): ${e.message}`));
    setAdded(parsed.orders.length);
    if (parsed.orders.length > 0) props.onOrders(parsed.orders);
    if (parsed.errors.length === 0) setText('');
  };

  return (
    <details className="order-text-box">
      <summary>{t.typeOrders}</summary>
      <p className="muted">{t.typeHint}</p>
      {powers.length > 1 ? (
        <label>
          {t.textPower}{' '}
          <select value={power} onChange={(e) => setPower(e.target.value as Power)}>
            {powers.map((p) => (
              <option key={p} value={p}>
                {t.powers[p]}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <textarea aria-label={t.orderText} value={text} rows={4} onChange={(e) => setText(e.target.value)} spellCheck={false} autoCapitalize="off" />
      <button type="button" onClick={submit}>
        {t.addOrders}
      </button>
      {added > 0 && errors.length === 0 ? <p className="muted" role="status">{`${t.added}: ${added}`}</p> : null}
      {errors.length > 0 ? (
        <ul className="errors" role="alert">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
