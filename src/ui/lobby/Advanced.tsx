// Settings most players never touch (the network), folded away under "Advanced" with a plain
// word of help beside each. A new setting is one more <AdvancedField> inside <AdvancedSection>.
import type { ReactNode } from 'react';
import type { Lang } from '../i18n';
import { APP_STRINGS } from './strings';

export function AdvancedSection(props: { lang: Lang; children: ReactNode; open?: boolean }) {
  const t = APP_STRINGS[props.lang].advanced;
  return (
    <details className="advanced" data-section="advanced" open={props.open}>
      <summary data-action="advanced">{t.title}</summary>
      <p className="muted">{t.hint}</p>
      {props.children}
    </details>
  );
}

/** One setting: its label, the control, and what it is for in plain words. */
export function AdvancedField(props: { label: string; help: string; children: ReactNode }) {
  return (
    <div className="advanced-field">
      <label>
        {props.label}
        {props.children}
      </label>
      <p className="muted help">{props.help}</p>
    </div>
  );
}
