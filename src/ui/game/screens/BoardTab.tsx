// The current phase: order entry by tapping (or typing) for this player's powers and the seal,
// or, when the phase is not theirs (retreats, builds), the board and who we are waiting for.
import { useState } from 'react';
import type { Order, Power } from '../../../rules';
import { phaseName, type Lang } from '../../i18n';
import { Board } from '../../map/Board';
import { draftReducer, type DraftAction, type Draft } from '../../orders/draft';
import { AdjustmentSummary } from '../../orders/AdjustmentSummary';
import { OrderEntry } from '../../orders/OrderEntry';
import type { GameSession } from '../session';
import { ordersOf, phaseTask, powerList, sameOrders } from './logic';
import { SealPanel } from './SealPanel';
import { SealStatus } from './SealStatus';
import { SCREEN_STRINGS } from './strings';

function flatten(drafts: GameSession['drafts'], powers: readonly Power[]): Draft {
  return powers.flatMap((p) => drafts[p] ?? []).reduce<Draft>((d, o) => draftReducer(d, { type: 'set', order: o }), []);
}

export function BoardTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const c = session.view.current;
  const task = phaseTask(session.view, session.me.powers);
  const [local, setLocal] = useState<{ phase: string; draft: Draft } | null>(null);
  if (!c) return null;
  const draft = local && local.phase === c.key ? local.draft : flatten(session.drafts, task.mine);

  const onDraft = (action: DraftAction): void => {
    const next = draftReducer(draft, action);
    setLocal({ phase: c.key, draft: next });
    for (const p of task.mine) {
      const mine: Order[] = ordersOf(next, p);
      if (!sameOrders(mine, ordersOf(draft, p))) void session.saveDraft(p, mine);
    }
  };

  if (task.mine.length === 0) {
    return (
      <div className="board-tab">
        <p className="phase">{phaseName(c.position, lang)}</p>
        <p className="not-yours">
          {s.nothingYou} {c.position.phase.kind !== 'movement' ? s.waitingOnly(powerList(task.required, lang, s.none)) : ''}
        </p>
        <div className="practice-layout">
          <Board position={c.position} map={c.map} lang={lang} orders={[]} />
          <div className="side">
            {c.position.phase.kind === 'adjustment' ? <AdjustmentSummary position={c.position} lang={lang} mine={session.me.powers} /> : null}
            <SealStatus session={session} lang={lang} />
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="board-tab">
      <OrderEntry
        position={c.position}
        map={c.map}
        {...(session.view.rules ? { rules: session.view.rules } : {})}
        powers={task.mine}
        draft={draft}
        onDraft={onDraft}
        lang={lang}
      >
        <SealPanel session={session} powers={task.mine} position={c.position} draft={draft} lang={lang} />
        <SealStatus session={session} lang={lang} />
      </OrderEntry>
    </div>
  );
}
