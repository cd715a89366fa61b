// The game's relays as the player sees them: connected or not, and how many of this phone's
// updates still wait for a relay (sealed offline, say). Shown in the lobby and on the game screen.
import type { Lang } from '../i18n';
import { APP_STRINGS } from '../lobby/strings';
import type { NetStatus } from './session';

export function RelayStatus(props: { net: NetStatus; lang: Lang }) {
  const r = props.net.relays;
  if (r === undefined) return null;
  const t = APP_STRINGS[props.lang].game;
  return (
    <span
      className={r.connected > 0 ? 'net relay online' : 'net relay offline'}
      data-relays-connected={r.connected}
      data-relays-caught-up={r.caughtUp}
      data-relay-waiting={r.waiting}
      data-relays-misbehaving={r.misbehaving ?? 0}
      role="status"
    >
      {r.total === 1 ? (r.connected === 1 ? t.relayOn : t.relayOff) : t.relaysOf.replace('{c}', String(r.connected)).replace('{n}', String(r.total))}
      {r.waiting === 0 ? '' : ` · ${r.waiting === 1 ? t.waitingOne : t.waitingMany.replace('{n}', String(r.waiting))}`}
      {(r.misbehaving ?? 0) === 0 ? '' : ` · ${r.misbehaving === 1 ? t.relayMisbehaving : t.relaysMisbehaving.replace('{n}', String(r.misbehaving))}`}
    </span>
  );
}
