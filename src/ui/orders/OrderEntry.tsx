// Order entry as one piece: the board to tap, the prompt and buttons, the order list and the text
// box, for the powers this player commands. The practice board gives it all seven powers; the game
// screen gives it the player's own power and seals the draft it holds.
import { useState } from 'react';
import type { ReactNode } from 'react';
import { provinceOf } from '../../rules';
import type { GameMap, Loc, Position, Power } from '../../rules';
import type { Lang } from '../i18n';
import { Board } from '../map/Board';
import type { DraftAction, Draft } from './draft';
import { EntryPanel } from './EntryPanel';
import { IDLE, act, choose, entryView, tapLoc, type EntryAction, type EntryContext, type EntryOutcome, type EntryState } from './entry';
import { OrderList } from './OrderList';
import { OrderText } from './OrderText';

export interface OrderEntryProps {
  readonly position: Position;
  readonly powers: readonly Power[];
  readonly draft: Draft;
  readonly onDraft: (action: DraftAction) => void;
  readonly lang: Lang;
  /** The phase's map (a variant may close provinces); the standard map if not given. */
  readonly map?: GameMap;
  /** Shown under the lists: the practice board's "adjudicate", the game's "seal". */
  readonly children?: ReactNode;
}

export function OrderEntry(props: OrderEntryProps) {
  const { position, powers, draft, onDraft, lang } = props;
  const [entry, setEntry] = useState<{ state: EntryState; for: Position }>({ state: IDLE, for: position });
  // A new position (next phase, reset) starts a fresh entry.
  const state = entry.for === position ? entry.state : IDLE;
  const ctx: EntryContext = { position, powers, draft, ...(props.map ? { map: props.map } : {}) };
  const view = entryView(state, ctx);

  const apply = (out: EntryOutcome): void => {
    setEntry({ state: out.state, for: position });
    if (out.order) onDraft({ type: 'set', order: out.order });
    if (out.clear) onDraft({ type: 'clear', key: out.clear });
  };

  return (
    <div className="practice-layout">
      <Board
        position={position}
        lang={lang}
        orders={draft}
        selected={view.unit}
        targets={view.targets}
        onTap={(loc: Loc) => apply(tapLoc(state, ctx, loc))}
        onEscape={() => apply(act(state, ctx, 'cancel'))}
        {...(view.selectable[0] === undefined ? {} : { keyStart: provinceOf(view.selectable[0]) })}
      />
      <div className="side">
        <EntryPanel state={state} view={view} position={position} lang={lang} onAction={(a: EntryAction) => apply(act(state, ctx, a))} onChoose={(i) => apply(choose(state, i))} />
        <OrderList draft={draft} position={position} powers={powers} lang={lang} onRemove={(key) => onDraft({ type: 'clear', key })} onClearAll={() => onDraft({ type: 'clear-all' })} />
        <OrderText position={position} powers={powers} lang={lang} {...(props.map ? { map: props.map } : {})} onOrders={(orders) => onDraft({ type: 'set-many', orders })} />
        {props.children}
      </div>
    </div>
  );
}
