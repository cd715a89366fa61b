// Table mode on screen: a phone's pairing QR code (and the same code as text), the scanner (the
// camera, or a typed or pasted code), the install step, and the game's panel of phones at the
// table (which are linked, which dropped, pair one). The pairing itself is ./table.ts.
import { useEffect, useMemo, useRef, useState } from 'react';
import { qrModules } from '../../net/table/qr';
import { scanWithCamera } from '../../net/table/camera';
import { decodeTicket, parseTicketText, ticketText } from '../../net/table/ticket';
import type { Lang } from '../i18n';
import type { Device } from './device';
import { acquireGame, type LiveGame } from './live';
import type { TableAnswer, TableInvitation, TablePhone } from './table';
import { TABLE_STRINGS, tableError } from './table-strings';
import type { GameView } from '../../protocol';

/** A ticket as a QR code (SVG, crisp at any size) with its text form below. */
export function TableQr(props: { ticket: Uint8Array; lang: Lang; role: 'offer' | 'answer' }) {
  const t = TABLE_STRINGS[props.lang];
  const modules = useMemo(() => qrModules(props.ticket), [props.ticket]);
  const n = modules.length;
  const quiet = 4;
  const size = n + 2 * quiet;
  let d = '';
  modules.forEach((row, r) => row.forEach((dark, c) => (dark ? (d += `M${c + quiet} ${r + quiet}h1v1h-1z`) : undefined)));
  return (
    <figure className="table-qr" data-table-qr={props.role}>
      <svg
        viewBox={`0 0 ${size} ${size}`}
        width="300"
        height="300"
        role="img"
        aria-label={t.qr}
        shapeRendering="crispEdges"
        style={{ background: '#fff', display: 'block' }}
      >
        <rect width={size} height={size} fill="#fff" />
        <path d={d} fill="#000" />
      </svg>
      <figcaption>
        <label>
          {t.codeText}
          <input className="table-code-text" readOnly value={ticketText(props.ticket)} onFocus={(e) => e.target.select()} />
        </label>
      </figcaption>
    </figure>
  );
}

/** Reads a code: the camera (frames decoded until a Pacto table code is seen) or typed text. */
export function TableScanner(props: { lang: Lang; want: 'offer' | 'answer'; onCode: (bytes: Uint8Array) => void; error?: string | null }) {
  const t = TABLE_STRINGS[props.lang];
  // The camera opens when asked: a phone showing its own code must not read it back.
  const [scanning, setScanning] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const onCode = useRef(props.onCode);
  onCode.current = props.onCode;
  useEffect(() => {
    if (!scanning || video.current === null) return;
    const abort = new AbortController();
    setError(null);
    if (navigator.mediaDevices?.getUserMedia === undefined) {
      setError(t.noCamera);
      setScanning(false);
      return;
    }
    const accept = (code: Uint8Array): boolean => {
      try {
        // The other kind (this phone's own code seen in a mirror) is ignored; another game's is
        // taken, so the person is told it is another game's.
        decodeTicket(code, props.want);
        return true;
      } catch {
        return false;
      }
    };
    scanWithCamera({ video: video.current, accept, signal: abort.signal }).then(
      (bytes) => {
        setScanning(false);
        onCode.current(bytes);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        setError(tableError(e, props.lang));
        setScanning(false);
      },
    );
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scanning]);
  const shown = error ?? props.error ?? null;
  return (
    <div className="table-scanner" data-scanning={scanning ? 'true' : 'false'}>
      <button type="button" className="secondary" data-action="table-camera" onClick={() => setScanning((s) => !s)} aria-pressed={scanning}>
        {scanning ? t.stopCamera : t.camera}
      </button>
      {scanning ? <video ref={video} className="scanner" muted playsInline aria-label={t.camera} /> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          try {
            const bytes = parseTicketText(text);
            decodeTicket(bytes, props.want);
            setError(null);
            onCode.current(bytes);
          } catch (err) {
            setError(tableError(err, props.lang));
          }
        }}
      >
        <label>
          {t.typeCode}
          <input name="table-code" value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <button type="submit" data-action="table-use-code">
          {t.useCode}
        </button>
      </form>
      {shown !== null ? (
        <p role="alert" className="error" data-table-error>
          {shown}
        </p>
      ) : null}
    </div>
  );
}

interface InstallPrompt extends Event {
  prompt(): Promise<void>;
}

let deferredPrompt: InstallPrompt | null = null;
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    deferredPrompt = e as InstallPrompt;
  });
}

/** Whether this page runs from the app's offline copy: installed, or controlled by its service worker. */
export function appIsKept(): boolean {
  if (typeof navigator === 'undefined') return false;
  const standalone = typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches;
  return standalone || (navigator.serviceWorker?.controller ?? null) !== null;
}

/** Step 1 of the table flow when the app is not kept on this phone yet; a short line when it is. */
export function InstallStep(props: { lang: Lang }) {
  const t = TABLE_STRINGS[props.lang];
  const [kept, setKept] = useState(appIsKept);
  const [canPrompt, setCanPrompt] = useState(deferredPrompt !== null);
  useEffect(() => {
    const sw = navigator.serviceWorker;
    const on = () => setKept(appIsKept());
    sw?.addEventListener('controllerchange', on);
    const onPrompt = () => setTimeout(() => setCanPrompt(deferredPrompt !== null));
    window.addEventListener('beforeinstallprompt', onPrompt);
    return () => {
      sw?.removeEventListener('controllerchange', on);
      window.removeEventListener('beforeinstallprompt', onPrompt);
    };
  }, []);
  if (kept)
    return (
      <p className="muted" data-app-kept="true">
        {t.installed}
      </p>
    );
  return (
    <section className="table-install" data-app-kept="false" aria-labelledby="table-install-title">
      <h3 id="table-install-title">{t.installTitle}</h3>
      <p>{t.installText}</p>
      {!navigator.onLine ? <p className="error">{t.notCached}</p> : null}
      {canPrompt ? (
        <button
          type="button"
          onClick={() => {
            void deferredPrompt?.prompt();
            deferredPrompt = null;
            setCanPrompt(false);
          }}
        >
          {t.install}
        </button>
      ) : null}
    </section>
  );
}

type Pairing =
  | { readonly kind: 'idle' }
  | { readonly kind: 'inviting'; readonly invitation: TableInvitation }
  | { readonly kind: 'answering' }
  | { readonly kind: 'answered'; readonly answer: TableAnswer }
  | { readonly kind: 'connecting' };

function phoneName(view: GameView | undefined, key: string, lang: Lang): string {
  return view?.players.find((p) => p.key === key)?.name ?? `${TABLE_STRINGS[lang].unknownPhone} ${key.slice(0, 6)}`;
}

/** The game's phones at the table: linked or dropped, and the two ways to pair one. */
export function TablePanel(props: { gameId: string; device: Device; lang: Lang; view?: GameView; open?: boolean }) {
  const t = TABLE_STRINGS[props.lang];
  const [game, setGame] = useState<LiveGame | null>(null);
  const [phones, setPhones] = useState<TablePhone[]>([]);
  const [pairing, setPairing] = useState<Pairing>({ kind: 'idle' });
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  useEffect(() => {
    const handle = acquireGame(props.device, props.gameId);
    let off = (): void => undefined;
    let live = true;
    void handle.ready.then((g) => {
      if (!live || g === null) return;
      setGame(g);
      setPhones(g.table.list());
      off = g.table.onChange(() => setPhones(g.table.list()));
    });
    return () => {
      live = false;
      off();
      handle.release();
    };
  }, [props.device, props.gameId]);
  const fail = (e: unknown) => {
    setMessage({ error: true, text: tableError(e, props.lang) });
    setPairing({ kind: 'idle' });
  };
  const done = () => {
    setMessage({ error: false, text: t.paired });
    setPairing({ kind: 'idle' });
  };
  const cancel = () => {
    if (pairing.kind === 'inviting') pairing.invitation.cancel();
    if (pairing.kind === 'answered') pairing.answer.cancel();
    setPairing({ kind: 'idle' });
  };
  return (
    <details className="table-panel" open={props.open} data-section="table">
      <summary>{t.title}</summary>
      <p className="muted">{t.hint}</p>
      <ul className="table-phones" data-linked={phones.filter((p) => p.linked).length} data-phones={phones.length}>
        {phones.length === 0 ? <li className="muted">{t.noPhones}</li> : null}
        {phones.map((p) => (
          <li key={p.key} data-phone={p.key} data-linked={p.linked ? 'true' : 'false'}>
            {phoneName(props.view, p.key, props.lang)}: <strong>{p.linked ? t.linked : t.dropped}</strong>
            {p.linked ? null : <span className="muted"> {t.droppedHint}</span>}
          </li>
        ))}
      </ul>
      {message !== null ? (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'muted'} data-table-message={message.error ? 'error' : 'ok'}>
          {message.text}
        </p>
      ) : null}
      {game === null ? null : pairing.kind === 'idle' ? (
        <div className="toolbar">
          <button
            type="button"
            data-action="table-pair"
            onClick={() => {
              setMessage(null);
              game.table.invite().then((invitation) => setPairing({ kind: 'inviting', invitation }), fail);
            }}
          >
            {t.pair}
          </button>
          <button
            type="button"
            className="secondary"
            data-action="table-scan-offer"
            onClick={() => {
              setMessage(null);
              setPairing({ kind: 'answering' });
            }}
          >
            {t.scanOffer}
          </button>
        </div>
      ) : pairing.kind === 'inviting' ? (
        <div className="table-step">
          <p>{t.pairHint}</p>
          <TableQr ticket={pairing.invitation.ticket} lang={props.lang} role="offer" />
          <h4>{t.scanAnswer}</h4>
          <TableScanner
            lang={props.lang}
            want="answer"
            onCode={(bytes) => {
              const inv = pairing.invitation;
              setPairing({ kind: 'connecting' });
              inv.accept(bytes).then(done, (e: unknown) => {
                // A failed pairing frees its invitation (its WebRTC peer); "Pair a phone" makes a new one.
                inv.cancel();
                fail(e);
              });
            }}
          />
          <button type="button" className="secondary" onClick={cancel}>
            {t.cancel}
          </button>
        </div>
      ) : pairing.kind === 'answering' ? (
        <div className="table-step">
          <TableScanner
            lang={props.lang}
            want="offer"
            onCode={(bytes) => {
              game.table.answer(bytes).then((answer) => {
                setPairing({ kind: 'answered', answer });
                answer.linked.then(done, fail);
              }, fail);
            }}
          />
          <button type="button" className="secondary" onClick={cancel}>
            {t.cancel}
          </button>
        </div>
      ) : pairing.kind === 'answered' ? (
        <div className="table-step">
          <p>{t.showAnswer}</p>
          <TableQr ticket={pairing.answer.ticket} lang={props.lang} role="answer" />
          <button type="button" className="secondary" onClick={cancel}>
            {t.cancel}
          </button>
        </div>
      ) : (
        <p role="status">{t.connecting}</p>
      )}
    </details>
  );
}
