// Whom the phase waits for, by name, at the top of every tab: "Waiting for Bruno (Italy, Russia)
// and you (England)"; when this player is the last one, that is what it says.
import type { Lang } from '../../i18n';
import type { GameSession } from '../session';
import { waiting } from './facts';
import { joinList, powerList } from './logic';
import { SCREEN_STRINGS } from './strings';

export function WaitingLine(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const c = session.view.current;
  if (!c || c.required.length === 0) return null;
  const w = waiting(session.view, session.me.key);
  const others = joinList(
    w.others.map((o) => `${o.name} (${powerList(o.powers, lang, '')})`),
    s.and,
  );
  const you = powerList(w.mine, lang, '');
  const text = w.lastIsMe ? s.youAreLast(you) : w.others.length > 0 ? s.waitingPeople(others, you) : s.allSealed;
  return (
    <p
      className={w.lastIsMe ? 'waiting-for last' : 'waiting-for'}
      role="status"
      data-waiting={w.others.flatMap((o) => o.powers).join(',')}
      data-mine={w.mine.join(',')}
      data-last={w.lastIsMe ? 'yes' : 'no'}
    >
      {text}
    </p>
  );
}
