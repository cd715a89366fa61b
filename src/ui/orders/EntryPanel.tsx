// The buttons and prompt that go with tapping on the map: what to tap next, the orders other
// than a move (hold, support, convoy, disband), and the list to pick from when a tap is ambiguous.
import { formatOrder, formatUnit, provinceOf } from '../../rules';
import type { Position } from '../../rules';
import { STRINGS, type Lang } from '../i18n';
import type { EntryAction, EntryState, EntryView } from './entry';

function prompt(state: EntryState, view: EntryView, position: Position, lang: Lang): string {
  const p = STRINGS[lang].prompts;
  if (state.step !== 'idle') return p[state.step];
  if (view.selectable.length === 0) return p.nothingToOrder;
  return position.phase.kind === 'retreat' ? p.idleRetreat : position.phase.kind === 'adjustment' ? p.idleAdjustment : p.idle;
}

export function EntryPanel(props: {
  state: EntryState;
  view: EntryView;
  position: Position;
  lang: Lang;
  onAction: (a: EntryAction) => void;
  onChoose: (index: number) => void;
}) {
  const { state, view, position, lang } = props;
  const t = STRINGS[lang];
  // In a retreat the unit being ordered is the dislodged one, not the victor now standing there.
  const dislodged = view.unit ? position.dislodged.find((d) => d.unit.loc === view.unit)?.unit : undefined;
  const standing = view.unit ? position.units.find((u) => u.loc === view.unit) : undefined;
  const unit = position.phase.kind === 'retreat' ? (dislodged ?? standing) : (standing ?? dislodged);
  return (
    <div className="entry-panel" data-step={state.step}>
      <p className="prompt" aria-live="polite">
        {unit ? (
          <strong data-selected={provinceOf(unit.loc)}>
            {t.selected}: {formatUnit(unit, lang)} ({t.powers[unit.power]}).{' '}
          </strong>
        ) : null}
        {prompt(state, view, position, lang)}
      </p>
      {view.options.length > 0 ? (
        <div className="options" role="group" aria-label={t.prompts.choose}>
          {view.options.map((o, i) => (
            <button key={i} type="button" onClick={() => props.onChoose(i)} data-option={i}>
              {formatOrder(o, lang, 'long')}
            </button>
          ))}
        </div>
      ) : null}
      {view.actions.length > 0 ? (
        <div className="actions">
          {view.actions.map((a) => (
            <button key={a} type="button" data-action={a} className={a === 'cancel' ? 'secondary' : ''} onClick={() => props.onAction(a)}>
              {t.actions[a]}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
