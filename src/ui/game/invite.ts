// A game's invite, made in one place for every screen that shows it (the lobby's invite card) and
// for table mode's greeting (live.ts): the link (game id, room password, the game's signaling
// addresses, relays and ICE servers in the fragment, src/net/invite.ts) and its QR code.
import { formatInvite, inviteQrSvg } from '../../net/invite';
import type { AppGameRecord } from './records';
import type { GameInvite, GameNetwork } from './session';

/** Where this app is served (the page's address without its fragment). */
export function appAddress(): string {
  return typeof location === 'undefined' ? 'http://localhost/' : `${location.origin}${location.pathname}`;
}

/** The invite link of a game: its record's room password and signaling, and its network now. */
export function inviteLink(gameId: string, record: Pick<AppGameRecord, 'password' | 'signaling'>, network: GameNetwork, appUrl: string = appAddress()): string {
  return formatInvite(appUrl, {
    gameId,
    password: record.password,
    signaling: record.signaling,
    ...(network.relays.length > 0 ? { relays: network.relays } : {}),
    ...(network.iceServers.length > 0 ? { iceServers: network.iceServers } : {}),
  });
}

/** The invite as a screen shows it: the link as text, and its QR code (SVG) on demand. */
export function gameInvite(link: string): GameInvite {
  let svg: Promise<string> | null = null;
  return { link, qrSvg: () => (svg ??= inviteQrSvg(link)) };
}
