// Press: messages to one power, several, or everyone (sealed to the recipients' keys by the
// session), the conversation so far, and nothing at all in a gunboat game.
import { useEffect, useState } from 'react';
import type { Power } from '../../../rules';
import { STRINGS, type Lang } from '../../i18n';
import type { GameSession } from '../session';
import { powerList, powersOfKey, pressEnabled, pressRecipients } from './logic';
import { SCREEN_STRINGS } from './strings';

export function PressTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const t = STRINGS[lang];
  const s = SCREEN_STRINGS[lang];
  const [to, setTo] = useState<readonly Power[] | 'all'>('all');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chats = [...session.chats].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
  const others = pressRecipients(session.view, session.me.key);

  // Reading the tab is reading the messages, including ones arriving while it is open.
  useEffect(() => {
    if (session.unread > 0) session.markChatsRead();
  }, [session, session.unread]);

  if (!pressEnabled(session.view)) return <p className="press-off">{s.pressOff}</p>;

  const toggle = (p: Power): void => {
    const current = to === 'all' ? [] : to;
    const next = current.includes(p) ? current.filter((x) => x !== p) : [...current, p].sort();
    setTo(next);
  };
  const send = async (): Promise<void> => {
    if (to !== 'all' && to.length === 0) {
      setError(s.chooseRecipients);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await session.sendChat(to, text.trim());
      setText('');
    } catch (e) {
      setError(`${s.sendError}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const author = (key: string, fromPower?: Power): string => {
    if (key === session.me.key) return s.you;
    const name = session.view.players.find((p) => p.key === key)?.name ?? key.slice(0, 8);
    const powers = fromPower ? [fromPower] : powersOfKey(session.view, key);
    return powers.length > 0 ? `${powerList(powers, lang, '')} (${name})` : name;
  };

  return (
    <div className="press-tab">
      <h3>{s.pressTitle}</h3>
      {chats.length === 0 ? <p className="muted">{s.noMessages}</p> : null}
      <ol className="chat-list">
        {chats.map((c) => (
          <li key={c.id} className={c.from === session.me.key ? 'chat mine' : 'chat'} data-chat-from={c.fromPower ?? ''}>
            <p className="chat-head">
              <strong>{author(c.from, c.fromPower)}</strong> → {c.to === 'all' ? s.toAll : powerList(c.to, lang, s.none)} ·{' '}
              <time dateTime={new Date(c.time).toISOString()}>{new Date(c.time).toLocaleString(lang)}</time>
            </p>
            <p className="chat-text">{c.text ?? <em className="muted">{s.unreadable}</em>}</p>
          </li>
        ))}
      </ol>
      <form
        className="chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim().length > 0) void send();
        }}
      >
        <fieldset>
          <legend>{s.to}</legend>
          <label className="check">
            <input type="checkbox" checked={to === 'all'} onChange={() => setTo(to === 'all' ? [] : 'all')} data-recipient="all" /> {s.toAll}
          </label>
          {others.map((p) => (
            <label key={p} className="check">
              <input type="checkbox" checked={to !== 'all' && to.includes(p)} onChange={() => toggle(p)} data-recipient={p} /> {t.powers[p]}
            </label>
          ))}
        </fieldset>
        <label className="chat-input">
          <span>{s.message}</span>
          <textarea aria-label={s.message} value={text} rows={3} maxLength={2000} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" data-action="send-chat" disabled={busy || text.trim().length === 0}>
          {s.send}
        </button>
        {error ? (
          <p className="errors" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </div>
  );
}
