// Order entry as one piece: the board to tap, the prompt and buttons, the order list and the text
// box, for the powers this player commands. The practice board gives it all seven powers; the game
// screen gives it the player's own power and seals the draft it holds. In winter it also says what
// each power builds or removes, lights the centres still open for building, and says why a tap
// did nothing (a build beyond the count, say) instead of ignoring it.
import { useState } from 'react';
import type { ReactNode } from 'react';
import { provinceOf } from '../../rules';
import type { GameMap, Loc, Position, Power, RuleOptions } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import { Board } from '../map/Board';
import { AdjustmentSummary } from './AdjustmentSummary';
import { adjustmentNotice, buildSites, type AdjustmentNotice } from './adjustments';
import type { DraftAction, Draft } from './draft';
import { EntryPanel } from './EntryPanel';
import { IDLE, act, choose, entryView, tapLoc, type EntryAction, type EntryContext, type EntryOutcome, type EntryState } from './entry';
import { locName } from './names';
import { OrderList } from './OrderList';
import { ORDER_STRINGS } from './strings';
import { OrderText } from './OrderText';

export interface OrderEntryProps {
  readonly position: Position;
  readonly powers: readonly Power[];
  readonly draft: Draft;
  readonly onDraft: (action: DraftAction) => void;
  readonly lang: Lang;
  /** The phase's map (a variant may close provinces): in a game the view's current.map. */
  readonly map: GameMap;
  /** The game's rule switches (the view's rules); none on the practice board. */
  readonly rules?: Partial<RuleOptions>;
  /** Shown under the lists: the practice board's "adjudicate", the game's "seal". */
  readonly children?: ReactNode;
}

export function noticeText(n: AdjustmentNotice, lang: Lang): string {
  const o = ORDER_STRINGS[lang];
  const power = STRINGS[lang].powers[n.power];
  switch (n.kind) {
    case 'no-more-builds':
      return o.noMoreBuilds(power, n.delta, locName(lang)(n.at));
    case 'not-a-build-site':
      return o.notBuildSite(power, n.free.map(locName(lang)).join(', '));
    case 'no-more-removals':
      return o.noMoreRemovals(power, -n.delta);
    case 'not-a-removal':
      return o.notRemoval(power);
  }
}

export function OrderEntry(props: OrderEntryProps) {
  const { position, powers, draft, onDraft, lang } = props;
  const [entry, setEntry] = useState<{ state: EntryState; for: Position; notice?: AdjustmentNotice }>({ state: IDLE, for: position });
  // A new position (next phase, reset) starts a fresh entry.
  const fresh = entry.for === position;
  const state = fresh ? entry.state : IDLE;
  const notice = fresh ? entry.notice : undefined;
  const ctx: EntryContext = { position, powers, draft, map: props.map, ...(props.rules ? { rules: props.rules } : {}) };
  const view = entryView(state, ctx);
  const winter = position.phase.kind === 'adjustment';

  const apply = (out: EntryOutcome, tapped?: Loc): void => {
    // A winter tap that changed nothing gets a reason.
    const idle = out.order === undefined && out.clear === undefined && out.state.step === 'idle';
    const why = winter && idle && tapped !== undefined ? adjustmentNotice(position, powers, draft, tapped, props.map) : null;
    setEntry({ state: out.state, for: position, ...(why ? { notice: why } : {}) });
    if (out.order) onDraft({ type: 'set', order: out.order });
    if (out.clear) onDraft({ type: 'clear', key: out.clear });
  };
  const targets = view.targets.length > 0 || !winter || state.step !== 'idle' ? view.targets : buildSites(position, powers, draft, props.map);

  return (
    <div className="practice-layout">
      <Board
        position={position}
        map={props.map}
        lang={lang}
        orders={draft}
        selected={view.unit}
        targets={targets}
        onTap={(loc: Loc) => apply(tapLoc(state, ctx, loc), loc)}
        onEscape={() => apply(act(state, ctx, 'cancel'))}
        {...(view.selectable[0] === undefined ? {} : { keyStart: provinceOf(view.selectable[0]) })}
      />
      <div className="side">
        <EntryPanel
          state={state}
          view={view}
          position={position}
          lang={lang}
          onAction={(a: EntryAction) => apply(act(state, ctx, a))}
          onChoose={(i) => apply(choose(state, i))}
        />
        {notice ? (
          <p className="entry-notice" role="alert" data-notice={notice.kind}>
            {noticeText(notice, lang)}
          </p>
        ) : null}
        {winter ? <AdjustmentSummary position={position} lang={lang} mine={powers} draft={draft} {...(props.map ? { map: props.map } : {})} /> : null}
        <OrderList
          draft={draft}
          position={position}
          powers={powers}
          lang={lang}
          onRemove={(key) => onDraft({ type: 'clear', key })}
          onClearAll={() => onDraft({ type: 'clear-all' })}
        />
        <OrderText
          position={position}
          powers={powers}
          lang={lang}
          map={props.map}
          {...(props.rules ? { rules: props.rules } : {})}
          onOrders={(orders) => onDraft({ type: 'set-many', orders })}
        />
        {props.children}
      </div>
    </div>
  );
}
