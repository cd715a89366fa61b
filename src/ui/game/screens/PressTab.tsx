// Press as conversations between players (a player holding three powers is one person): the list
// of conversations, one open with its messages and a reply box, and a new message to the players
// chosen (nobody is ticked until the player picks; "everyone" is a choice, not the default).
// Sealed to the recipients' keys by the session; nothing at all in a gunboat game.
import { useEffect, useState } from 'react';
import type { Lang } from '../../i18n';
import type { GameSession } from '../session';
import { people, powersToReach, threads, type Person, type Thread } from './facts';
import { powerList, pressEnabled } from './logic';
import { SCREEN_STRINGS } from './strings';

function personLabel(p: Person, lang: Lang): string {
  return `${p.name} (${powerList(p.powers, lang, '')})`;
}

export function PressTab(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const s = SCREEN_STRINGS[lang];
  const [open, setOpen] = useState<string | null>(null);
  const [to, setTo] = useState<readonly string[] | 'all'>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const view = session.view;
  const everyone = people(view, session.me.key);
  const others = everyone.filter((p) => !p.me);
  const list = threads(view, session.chats, session.me.key);
  const thread: Thread | undefined = list.find((t) => t.id === open);

  // Reading the tab is reading the messages, including ones arriving while it is open.
  useEffect(() => {
    if (session.unread > 0) session.markChatsRead();
  }, [session, session.unread]);

  if (!pressEnabled(view)) return <p className="press-off">{s.pressOff}</p>;

  const withText = (w: Thread['with']): string => (w === 'all' ? s.toAll : w.map((p) => personLabel(p, lang)).join(', '));
  const send = async (recipients: readonly Person[] | 'all'): Promise<void> => {
    if (recipients !== 'all' && recipients.length === 0) {
      setError(s.chooseRecipients);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await session.sendChat(recipients === 'all' ? 'all' : powersToReach(recipients), text.trim());
      setText('');
      setTo([]);
      setOpen(
        recipients === 'all'
          ? 'all'
          : recipients
              .map((p) => p.key)
              .sort()
              .join(','),
      );
    } catch (e) {
      setError(`${s.sendError}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const author = (key: string): string => {
    if (key === session.me.key) return s.you;
    const p = everyone.find((x) => x.key === key);
    return p ? personLabel(p, lang) : (view.players.find((x) => x.key === key)?.name ?? key.slice(0, 8));
  };
  const box = (onSend: () => void, label: string) => (
    <form
      className="chat-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim().length > 0) onSend();
      }}
    >
      <label className="chat-input">
        <span>{label}</span>
        <textarea aria-label={label} value={text} rows={3} maxLength={2000} onChange={(e) => setText(e.target.value)} />
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
  );

  if (thread) {
    return (
      <div className="press-tab" data-thread-open={thread.id}>
        <button type="button" className="secondary" data-action="threads" onClick={() => setOpen(null)}>
          ← {s.allThreads}
        </button>
        <h3 className="thread-title">{s.conversationWith(withText(thread.with))}</h3>
        <ol className="chat-list">
          {thread.chats.map((c) => (
            <li key={c.id} className={c.from === session.me.key ? 'chat mine' : 'chat'} data-chat-from={c.fromPower ?? ''}>
              <p className="chat-head">
                <strong>{author(c.from)}</strong> · <time dateTime={new Date(c.time).toISOString()}>{new Date(c.time).toLocaleString(lang)}</time>
              </p>
              <p className="chat-text">{c.text ?? <em className="muted">{s.unreadable}</em>}</p>
            </li>
          ))}
        </ol>
        {box(() => void send(thread.with), s.reply)}
      </div>
    );
  }

  const chosen: readonly Person[] | 'all' = to === 'all' ? 'all' : others.filter((p) => to.includes(p.key));
  const toggle = (key: string): void => {
    const current = to === 'all' ? [] : to;
    setTo(current.includes(key) ? current.filter((k) => k !== key) : [...current, key]);
  };
  return (
    <div className="press-tab">
      <h3>{s.pressTitle}</h3>
      {list.length === 0 ? <p className="muted">{s.noMessages}</p> : null}
      <ul className="threads">
        {list.map((t) => {
          const last = t.chats[t.chats.length - 1]!;
          return (
            <li key={t.id}>
              <button type="button" className="thread" data-thread={t.id} onClick={() => setOpen(t.id)}>
                <span className="thread-with">{withText(t.with)}</span>
                <span className="thread-last">
                  {author(last.from)}: {last.text ?? s.unreadable}
                </span>
                <span className="thread-count muted">{s.messages(t.chats.length)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <h3>{s.newMessage}</h3>
      <fieldset className="recipients">
        <legend>{s.to}</legend>
        {others.map((p) => (
          <label key={p.key} className="check">
            <input
              type="checkbox"
              checked={to !== 'all' && to.includes(p.key)}
              onChange={() => toggle(p.key)}
              data-recipient={p.key}
              data-recipient-powers={p.powers.join(',')}
            />{' '}
            {personLabel(p, lang)}
          </label>
        ))}
        <label className="check">
          <input type="checkbox" checked={to === 'all'} onChange={() => setTo(to === 'all' ? [] : 'all')} data-recipient="all" /> {s.toAll}
        </label>
      </fieldset>
      {box(() => void send(chosen), s.message)}
    </div>
  );
}
