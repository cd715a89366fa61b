// "Seal orders": a summary of what will be sealed, with the units still without orders called
// out, then a seal per power. Sealing again replaces the earlier seal while the phase is open,
// until the player marks its orders final (their FINAL is then signed at once, README "The early FINAL").
import { useState } from 'react';
import { formatOrder, formatUnit } from '../../../rules';
import type { Order, Position, Power } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import { unitsWithoutOrders } from '../../orders/draft';
import type { GameSession } from '../session';
import { ordersOf, sameOrders } from './logic';
import { SCREEN_STRINGS } from './strings';

export function SealPanel(props: { session: GameSession; powers: readonly Power[]; position: Position; draft: readonly Order[]; lang: Lang }) {
  const { session, powers, position, draft, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missing = unitsWithoutOrders(position, draft, powers);
  const everSealed = powers.some((p) => session.sealed[p] !== undefined);
  const c = session.view.current;
  // Once every awaited power has sealed, phones reveal: a later seal would not count.
  const locked = c !== undefined && c.ballot.sealed;
  const differs = everSealed && powers.some((p) => !sameOrders(session.sealed[p], ordersOf(draft, p)));
  // Marked final (the early FINAL): once its FINAL is signed a power's orders can no longer change.
  const final = c !== undefined && powers.some((p) => c.finalized.includes(p));
  const markFinal = session.markFinal;

  const mark = async (yes: boolean): Promise<void> => {
    if (markFinal === undefined) return;
    setBusy(true);
    setError(null);
    try {
      await markFinal(yes);
    } catch (e) {
      setError(`${s.finalError}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const seal = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      for (const p of powers) await session.seal(p, ordersOf(draft, p));
      setOpen(false);
    } catch (e) {
      setError(`${s.sealError}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="seal-panel" aria-label={s.seal}>
      {everSealed && !differs ? (
        <p className="sealed-note" role="status" data-sealed="yes">
          ✔ {s.sealedOk}
        </p>
      ) : null}
      {differs ? (
        <p className="draft-differs" role="status">
          ⚠ {s.draftDiffers}
        </p>
      ) : null}
      {locked ? (
        <p className="seal-locked" role="status">
          {s.sealLocked}
        </p>
      ) : final ? (
        <p className="seal-final" role="status" data-final="yes">
          ✔ {s.finalDone}
        </p>
      ) : !open ? (
        <button type="button" data-action="seal" onClick={() => setOpen(true)}>
          {everSealed ? s.reseal : s.seal}
        </button>
      ) : (
        <div className="seal-summary" role="dialog" aria-labelledby="seal-summary-title">
          <h3 id="seal-summary-title">{s.sealSummary}</h3>
          {draft.length === 0 ? <p>{s.sealNoOrders}</p> : null}
          {powers.map((p) => (
            <div key={p} data-power={p}>
              <h4>{t.powers[p]}</h4>
              <ul>
                {ordersOf(draft, p).map((o, i) => (
                  <li key={i} className="order-text">
                    {formatOrder(o, lang)}
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {missing.length > 0 ? (
            <p className="seal-warning" role="alert">
              ⚠ {position.phase.kind === 'retreat' ? s.sealWarningRetreat : s.sealWarning} {missing.map((u) => formatUnit(u, lang)).join(', ')}
            </p>
          ) : null}
          <div className="toolbar">
            <button type="button" data-action="confirm-seal" disabled={busy} onClick={() => void seal()}>
              {s.confirmSeal}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              {s.cancel}
            </button>
          </div>
        </div>
      )}
      {!locked && !final && !open && markFinal !== undefined && everSealed && !differs ? (
        session.ready === true ? (
          <p className="final-marked" role="status">
            {s.finalMarked}{' '}
            <button type="button" className="secondary" data-action="undo-final" disabled={busy} onClick={() => void mark(false)}>
              {s.undoFinal}
            </button>
          </p>
        ) : (
          <div className="mark-final">
            <button type="button" data-action="mark-final" disabled={busy} onClick={() => void mark(true)}>
              {s.markFinal}
            </button>
            <p className="hint">{s.markFinalHelp}</p>
          </div>
        )
      ) : null}
      {error ? (
        <p className="errors" role="alert">
          {error}
        </p>
      ) : null}
      {everSealed ? (
        <details className="sealed-orders">
          <summary>{s.sealedOrders}</summary>
          {powers.map((p) => (
            <p key={p} className="order-text">
              {t.powers[p]}: {(session.sealed[p] ?? []).map((o) => formatOrder(o, lang)).join('; ') || '—'}
            </p>
          ))}
        </details>
      ) : null}
    </section>
  );
}
