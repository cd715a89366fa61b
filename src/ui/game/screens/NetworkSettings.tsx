// The game's relays and STUN/TURN servers, editable after the game was created (New Game →
// Advanced sets them first, the invite carries them). The text is read by the game plumbing, as
// the new-game form's is (network-form.ts: readNetworkLines); every bad line is named in a clear
// error and nothing is saved. Saving stores them in the game's record, and the open game switches
// to them at once (live.ts: setNetwork).
import { useEffect, useState } from 'react';
import type { Lang } from '../../i18n';
import { networkText, readNetworkLines } from '../network-form';
import type { GameSession } from '../session';
import { NETWORK_STRINGS } from './network-strings';

export function NetworkSettings(props: { session: GameSession; lang: Lang }) {
  const { session, lang } = props;
  const t = NETWORK_STRINGS[lang];
  const network = session.network;
  const { relays: relaysText, iceServers: iceText } = networkText(network);
  const [relays, setRelays] = useState(relaysText);
  const [ice, setIce] = useState(iceText);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  // What is stored changed elsewhere (another screen of this page): show it.
  useEffect(() => setRelays(relaysText), [relaysText]);
  useEffect(() => setIce(iceText), [iceText]);

  if (network === undefined || session.setNetwork === undefined) return null;
  const setNetwork = session.setNetwork;

  const save = async (): Promise<void> => {
    setSaved(false);
    const read = readNetworkLines({ relays, iceServers: ice });
    if (!read.ok) {
      // Each field with a problem once, naming its bad lines (a list too long names none: the words say "up to 4").
      const fields = [...new Set(read.problems.map((p) => p.field))];
      setError(
        fields
          .map((f) => {
            const refused = read.problems.filter((p) => p.field === f && p.line !== null).map((p) => `«${p.line}»`);
            const words = f === 'relays' ? t.badRelays : t.badIce;
            return refused.length > 0 ? `${words} ${refused.join(', ')}` : words;
          })
          .join(' '),
      );
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await setNetwork(read.relays, read.iceServers);
      setSaved(true);
    } catch (e) {
      setError(`${t.saveError}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="game-network" aria-labelledby="game-network-title" data-section="game-network">
      <h3 id="game-network-title">{t.title}</h3>
      <p className="muted">{t.explain}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          <span>{t.relays}</span>
          <textarea
            name="game-relays"
            aria-label={t.relays}
            rows={2}
            value={relays}
            placeholder="wss://…/relay"
            onChange={(e) => (setRelays(e.target.value), setSaved(false))}
            inputMode="url"
            spellCheck={false}
          />
        </label>
        <label>
          <span>{t.ice}</span>
          <textarea
            name="game-ice"
            aria-label={t.ice}
            rows={2}
            value={ice}
            placeholder="turn:…:3478 user secret"
            onChange={(e) => (setIce(e.target.value), setSaved(false))}
            spellCheck={false}
          />
        </label>
        <button type="submit" data-action="save-network" disabled={busy}>
          {t.save}
        </button>
      </form>
      {error ? (
        <p className="errors" role="alert">
          {error}
        </p>
      ) : null}
      {saved ? (
        <p role="status" data-network-saved="">
          {t.saved}
        </p>
      ) : null}
    </section>
  );
}
