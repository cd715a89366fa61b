// Invite links. Everything secret rides in the URL fragment, which browsers never send to a
// server: the game id, the room password and the signaling addresses. Opening the link loads the
// app from its own address and the app reads the fragment.
import QRCode from 'qrcode';
import { checkSignalingUrl, defaultNetSettings, type IceServer, type NetSettings } from './settings';

export interface Invite {
  readonly gameId: string;
  readonly password: string;
  /** Empty: the signaling server on the host that served the app. */
  readonly signaling: readonly string[];
}

export class InviteError extends Error {}

const VERSION = '1';
const GAME_ID = /^[A-Za-z0-9_-]{8,128}$/;
const PASSWORD = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_SIGNALING = 4;

export function checkInvite(invite: Invite): Invite {
  if (!GAME_ID.test(invite.gameId)) throw new InviteError('the game id must be 8 to 128 letters, digits, "-" or "_"');
  if (!PASSWORD.test(invite.password)) throw new InviteError('the room password must be 16 to 128 letters, digits, "-" or "_"');
  if (invite.signaling.length > MAX_SIGNALING) throw new InviteError(`an invite names at most ${MAX_SIGNALING} signaling servers`);
  const signaling = invite.signaling.map((s) => {
    try {
      return checkSignalingUrl(s);
    } catch (e) {
      throw new InviteError((e as Error).message);
    }
  });
  return { gameId: invite.gameId, password: invite.password, signaling };
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
  const invite = checkInvite({ gameId: one('g', 'game id'), password: one('k', 'room password'), signaling: params.getAll('s') });
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
}

/**
 * Where to look for the game's peers: the invite's signaling addresses if it names any, else the
 * device's settings, else the server on the host that served the app. ICE servers come from the
 * settings only; with none, only host candidates are used (same network, or loopback).
 */
export function connectOptionsFor(invite: Invite, settings: Partial<NetSettings> = {}, location?: { readonly protocol: string; readonly host: string }): InviteConnectOptions {
  const fallback = defaultNetSettings(location).signaling;
  const signaling = invite.signaling.length > 0 ? invite.signaling : settings.signaling && settings.signaling.length > 0 ? settings.signaling : fallback;
  return { gameId: invite.gameId, password: invite.password, signaling, iceServers: settings.iceServers ?? [] };
}
