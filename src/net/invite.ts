// Invite links. Everything secret rides in the URL fragment, which browsers never send to a
// server: the game id, the room password, the signaling addresses, and (when the game names them)
// the ICE servers and relays every phone of the game uses. Opening the link loads the app from its
// own address and the app reads the fragment.
//
// Fragment (version 1): v=1 & g=<game id> & k=<room password> & s=<signaling>* & i=<ICE server>* &
// r=<relay>*. An ICE server is JSON {"urls": ..., "username"?, "credential"?}. `i` and `r` came
// later; links without them parse as before, and older apps ignore them.
import QRCode from 'qrcode';
import { checkIceServer, checkRelayUrl, checkSignalingUrl, defaultNetSettings, defaultRelay, type IceServer, type NetSettings } from './settings';

export interface Invite {
  readonly gameId: string;
  readonly password: string;
  /** Empty: the signaling server on the host that served the app. */
  readonly signaling: readonly string[];
  /** STUN/TURN servers for every phone of the game. Absent or empty: each phone's own settings. */
  readonly iceServers?: readonly IceServer[];
  /** Relays for every phone of the game (ws[s]://host/relay). Absent or empty: none named. */
  readonly relays?: readonly string[];
}

export class InviteError extends Error {}

const VERSION = '1';
const GAME_ID = /^[A-Za-z0-9_-]{8,128}$/;
const PASSWORD = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_SIGNALING = 4;
const MAX_ICE = 4;
const MAX_RELAYS = 4;

export function checkInvite(invite: Invite): Invite {
  if (!GAME_ID.test(invite.gameId)) throw new InviteError('the game id must be 8 to 128 letters, digits, "-" or "_"');
  if (!PASSWORD.test(invite.password)) throw new InviteError('the room password must be 16 to 128 letters, digits, "-" or "_"');
  if (invite.signaling.length > MAX_SIGNALING) throw new InviteError(`an invite names at most ${MAX_SIGNALING} signaling servers`);
  const iceServers = invite.iceServers ?? [];
  const relays = invite.relays ?? [];
  if (iceServers.length > MAX_ICE) throw new InviteError(`an invite names at most ${MAX_ICE} ICE servers`);
  if (relays.length > MAX_RELAYS) throw new InviteError(`an invite names at most ${MAX_RELAYS} relays`);
  const checked = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw new InviteError((e as Error).message);
    }
  };
  const signaling = invite.signaling.map((s) => checked(() => checkSignalingUrl(s)));
  const ice = iceServers.map((s) => checked(() => copyIceServer(checkIceServer(s))));
  const rel = relays.map((r) => checked(() => checkRelayUrl(r)));
  return {
    gameId: invite.gameId,
    password: invite.password,
    signaling,
    ...(ice.length > 0 ? { iceServers: ice } : {}),
    ...(rel.length > 0 ? { relays: rel } : {}),
  };
}

/** Only the fields an ICE server has, urls as a list. */
function copyIceServer(s: IceServer): IceServer {
  return {
    urls: typeof s.urls === 'string' ? [s.urls] : [...s.urls],
    ...(s.username !== undefined ? { username: s.username } : {}),
    ...(s.credential !== undefined ? { credential: s.credential } : {}),
  };
}

function parseIceServer(text: string): IceServer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InviteError('an ICE server in the invite is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InviteError('an ICE server in the invite is not an object');
  return value as IceServer;
}

/** A fresh room password: 128 random bits, base64url. */
export function newRoomPassword(random: (bytes: Uint8Array) => Uint8Array = (b) => globalThis.crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `appUrl` is where the app is served; any fragment it has is replaced. */
export function formatInvite(appUrl: string, invite: Invite): string {
  const checked = checkInvite(invite);
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new InviteError(`not an app address: "${appUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InviteError(`the app address must be http or https: "${appUrl}"`);
  const params = new URLSearchParams();
  params.set('v', VERSION);
  params.set('g', checked.gameId);
  params.set('k', checked.password);
  for (const s of checked.signaling) params.append('s', s);
  for (const i of checked.iceServers ?? []) params.append('i', JSON.stringify(i));
  for (const r of checked.relays ?? []) params.append('r', r);
  url.hash = params.toString();
  return url.href;
}

export interface ParsedInvite extends Invite {
  /** The link without its fragment: where the app is served. */
  readonly appUrl: string;
}

/** Reads an invite link (or just its fragment, with or without "#"). Throws InviteError saying
 * what is wrong. */
export function parseInvite(link: string): ParsedInvite {
  const text = link.trim();
  let fragment: string;
  let appUrl = '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new InviteError('the invite is not a valid link');
    }
    fragment = url.hash.replace(/^#/, '');
    url.hash = '';
    appUrl = url.href;
  } else {
    fragment = text.replace(/^#/, '');
  }
  if (fragment === '') throw new InviteError('the link carries no invite (nothing after "#")');
  const params = new URLSearchParams(fragment);
  const version = params.get('v');
  if (version !== VERSION) throw new InviteError(version === null ? 'the link carries no invite' : `invite version ${version} is not supported`);
  const one = (key: string, what: string): string => {
    const values = params.getAll(key);
    if (values.length === 0) throw new InviteError(`the invite has no ${what}`);
    if (values.length > 1) throw new InviteError(`the invite has more than one ${what}`);
    return values[0]!;
  };
  const invite = checkInvite({
    gameId: one('g', 'game id'),
    password: one('k', 'room password'),
    signaling: params.getAll('s'),
    iceServers: params.getAll('i').map(parseIceServer),
    relays: params.getAll('r'),
  });
  return { ...invite, appUrl };
}

/** The invite as a QR code in SVG, for the screen. Medium error correction is readable by a
 * phone camera at arm's length for links of this size. */
export function inviteQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

export async function inviteQrDataUrl(link: string): Promise<string> {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await inviteQrSvg(link))}`;
}

/** The QR code's modules (true = dark), row by row: for drawing it some other way, and for tests. */
export function inviteQrModules(link: string): boolean[][] {
  const qr = QRCode.create(link, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.modules.get(r, c) === 1));
}

export interface InviteConnectOptions {
  readonly gameId: string;
  readonly password: string;
  readonly signaling: readonly string[];
  readonly iceServers: readonly IceServer[];
  readonly relays: readonly string[];
}

/**
 * Where to look for the game's peers: the invite's signaling addresses if it names any, else the
 * device's settings, else the server on the host that served the app. ICE servers: the invite's
 * if it names any (so every phone of the game uses the same), else the device's settings; with
 * none, only host candidates are used (same network, or loopback), and no public STUN server is
 * contacted. Relays: every one the invite or the device's settings name; with none, the relay on
 * the host that served the app.
 */
export function connectOptionsFor(
  invite: Invite,
  settings: Partial<NetSettings> = {},
  location?: { readonly protocol: string; readonly host: string },
): InviteConnectOptions {
  const fallback = defaultNetSettings(location).signaling;
  const signaling = invite.signaling.length > 0 ? invite.signaling : settings.signaling && settings.signaling.length > 0 ? settings.signaling : fallback;
  const iceServers = invite.iceServers && invite.iceServers.length > 0 ? invite.iceServers : (settings.iceServers ?? []);
  const named = [...new Set([...(invite.relays ?? []), ...(settings.relays ?? [])])];
  const relays = named.length > 0 ? named : location && location.host !== '' ? [defaultRelay(location)] : [];
  return { gameId: invite.gameId, password: invite.password, signaling, iceServers, relays };
}
