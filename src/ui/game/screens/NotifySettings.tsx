// The game's notifications on this phone (Game tab): on or off, quiet hours, and why. Permission
// is asked only from the player's tap on "Turn notifications on", after the line saying why.
import { useEffect, useState } from 'react';
import type { Lang } from '../../i18n';
import { iosNeedsInstall, NotifyError } from '../push';
import type { GameNotifySettings } from '../records';
import type { GameSession } from '../session';
import { NOTIFY_STRINGS } from './notify-strings';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function NotifySettings(props: { session: GameSession; lang: Lang }) {
  const n = props.session.notifications;
  const s = NOTIFY_STRINGS[props.lang];
  const [settings, setSettings] = useState<GameNotifySettings | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void n?.load().then((v) => live && setSettings(v));
    return () => {
      live = false;
    };
  }, [n]);
  if (n === undefined || settings === null) return null;
  const fail = (e: unknown): void => {
    const text =
      e instanceof NotifyError
        ? `${s.problems[e.problem]}${e.problem === 'subscribe-failed' ? `: ${e.message}` : ''}`
        : `${s.error}: ${e instanceof Error ? e.message : String(e)}`;
    setMessage({ text, error: true });
  };
  const act = (p: Promise<void>): void => {
    setBusy(true);
    setMessage(null);
    p.catch(fail).finally(() => setBusy(false));
  };
  const quiet = settings.quiet;
  const setQuiet = (from: number | null, to: number | null): void => act(n.setQuiet(from === null || to === null ? undefined : { from, to }).then(setSettings));
  return (
    <section className="notify-settings" aria-labelledby="notify-title" data-notify={settings.on ? 'on' : 'off'}>
      <h3 id="notify-title">{s.title}</h3>
      <p className="muted">{s.why}</p>
      {iosNeedsInstall() ? (
        <p className="muted" data-ios-install>
          {s.ios}
        </p>
      ) : null}
      <p role="status">{settings.on ? s.stateOn : s.stateOff}</p>
      <div className="toolbar">
        {settings.on ? (
          <button type="button" className="secondary" data-action="notify-off" disabled={busy} onClick={() => act(n.disable().then(setSettings))}>
            {s.off}
          </button>
        ) : (
          <button
            type="button"
            data-action="notify-on"
            disabled={busy}
            onClick={() =>
              act(
                n.enable(quiet).then((r) => {
                  setSettings(r.settings);
                  if (r.skipped.length > 0) setMessage({ text: s.skipped(r.skipped.length), error: false });
                }),
              )
            }
          >
            {s.on}
          </button>
        )}
      </div>
      <label>
        {s.quiet}: {s.quietFrom}{' '}
        <select
          name="quiet-from"
          value={quiet?.from ?? ''}
          disabled={busy}
          onChange={(e) => setQuiet(e.target.value === '' ? null : Number(e.target.value), e.target.value === '' ? null : (quiet?.to ?? 8))}
        >
          <option value="">{s.quietNone}</option>
          {HOURS.map((h) => (
            <option key={h} value={h}>{`${h}:00`}</option>
          ))}
        </select>{' '}
        {s.quietTo}{' '}
        <select
          name="quiet-to"
          value={quiet?.to ?? ''}
          disabled={busy || quiet === undefined}
          onChange={(e) => setQuiet(quiet?.from ?? 22, Number(e.target.value))}
        >
          <option value="" disabled>
            {s.quietNone}
          </option>
          {HOURS.map((h) => (
            <option key={h} value={h}>{`${h}:00`}</option>
          ))}
        </select>
      </label>
      {message ? (
        <p className={message.error ? 'errors' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
