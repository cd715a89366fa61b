// Settings: language (defaulting to the phone's), the player's name, under "Advanced" the servers
// that introduce the phones in new games, this device's fingerprint, and the About and licences section.
import { useState } from 'react';
import { checkSignalingUrl } from '../../net/settings';
import { fingerprint } from '../../protocol';
import { About } from '../About';
import type { Device } from '../game/device';
import { LANGS, STRINGS, type Lang } from '../i18n';
import { AdvancedField, AdvancedSection } from '../lobby/Advanced';
import { APP_STRINGS } from '../lobby/strings';

export function Settings(props: { device: Device; lang: Lang; onLang: (lang: Lang) => void; onSaved: (device: Device) => void }) {
  const { device, lang } = props;
  const t = APP_STRINGS[lang].settings;
  const [name, setName] = useState(device.settings.name ?? '');
  const [signaling, setSignaling] = useState((device.settings.signaling ?? []).join('\n'));
  const [state, setState] = useState<'idle' | 'saved' | string>('idle');
  const save = async () => {
    const addresses = signaling
      .split('\n')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    try {
      addresses.forEach(checkSignalingUrl);
    } catch (e) {
      setState((e as Error).message);
      return;
    }
    const patch = { name: name.trim() === '' ? undefined : name.trim(), signaling: addresses.length === 0 ? undefined : addresses };
    await device.store.updateSettings(patch);
    props.onSaved({ ...device, settings: { ...device.settings, ...patch } });
    setState('saved');
  };
  return (
    <section className="settings" aria-labelledby="settings-title">
      <h2 id="settings-title">{t.title}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          {STRINGS[lang].language}
          <select name="settings-language" aria-label={STRINGS[lang].language} value={lang} onChange={(e) => props.onLang(e.target.value as Lang)}>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {STRINGS[lang].languageNames[l]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.name}
          <input name="settings-name" value={name} maxLength={40} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
        </label>
        <AdvancedSection lang={lang}>
          <AdvancedField label={t.signaling} help={t.signalingHelp}>
            <textarea
              name="settings-signaling"
              rows={2}
              aria-label={t.signaling}
              value={signaling}
              onChange={(e) => setSignaling(e.target.value)}
              placeholder="wss://…"
            />
          </AdvancedField>
        </AdvancedSection>
        <button type="submit">{t.save}</button>
        {state === 'saved' ? <p role="status">{t.saved}</p> : state !== 'idle' ? <p role="alert">{state}</p> : null}
      </form>
      <p>
        {t.device}: <code>{fingerprint(device.identity.id)}</code>
      </p>
      <About lang={lang} />
    </section>
  );
}
