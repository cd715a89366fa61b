// The practice board from any phase of a real game: a private sandbox that copies the position;
// the player tries orders for every power and sees what the adjudicator says. Nothing is signed,
// stored or sent: the sandbox lives in this component's state only.
import { useState } from 'react';
import type { Position } from '../../../rules';
import type { Lang } from '../../i18n';
import { PracticeBoard } from '../../practice/PracticeBoard';
import { SCREEN_STRINGS } from './strings';

export function PracticeFrom(props: { choices: readonly { readonly label: string; readonly position: Position }[]; lang: Lang }) {
  const s = SCREEN_STRINGS[props.lang];
  const [open, setOpen] = useState<Position | null>(null);
  if (open) {
    return (
      <section className="practice-from" aria-label={s.practiceTitle}>
        <h4>{s.practiceTitle}</h4>
        <p className="muted">{s.practiceNote}</p>
        <button type="button" className="secondary" data-action="practice-close" onClick={() => setOpen(null)}>
          {s.practiceClose}
        </button>
        <PracticeBoard start={open} lang={props.lang} />
      </section>
    );
  }
  return (
    <p className="practice-open">
      {props.choices.map((c) => (
        <button key={c.label} type="button" className="secondary small" data-action="practice-open" onClick={() => setOpen(c.position)}>
          {c.label}
        </button>
      ))}
    </p>
  );
}
