// Joining: paste an invite link, or scan its QR code with the camera. A good invite is kept on
// this device and opens the game's lobby.
import { useEffect, useRef, useState } from 'react';
import { parseInvite } from '../../net/invite';
import type { Lang } from '../i18n';
import { APP_STRINGS } from '../lobby/strings';

export function JoinByLink(props: { lang: Lang; onInvite: (link: string) => void }) {
  const t = APP_STRINGS[props.lang];
  const [link, setLink] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const submit = (text: string) => {
    try {
      parseInvite(text);
      setError(null);
      props.onInvite(text);
    } catch (e) {
      setError(`${t.join.bad}: ${(e as Error).message}`);
    }
  };
  useEffect(() => {
    if (!scanning || video.current === null) return;
    const abort = new AbortController();
    // Loaded only when asked for: the QR reader is large and most joins are by link.
    void import('../../net/table/camera')
      .then(({ scanWithCamera }) => scanWithCamera({ video: video.current ?? undefined, signal: abort.signal }))
      .then((bytes) => {
        setScanning(false);
        submit(new TextDecoder().decode(bytes));
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(String((e as Error).message ?? e));
        setScanning(false);
      });
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scanning]);
  return (
    <section className="join" aria-labelledby="join-title">
      <h2 id="join-title">{t.join.title}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit(link);
        }}
      >
        <label>
          {t.join.paste}
          <textarea name="invite" rows={3} aria-label={t.join.paste} value={link} onChange={(e) => setLink(e.target.value)} />
        </label>
        <button type="submit" data-action="open-invite">
          {t.join.open}
        </button>
      </form>
      {error !== null ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="button" className="secondary" onClick={() => setScanning((s) => !s)} aria-pressed={scanning}>
        {scanning ? t.join.stopScan : t.join.scan}
      </button>
      {scanning ? <video ref={video} className="scanner" muted playsInline aria-label={t.join.scan} /> : null}
    </section>
  );
}
