// The network settings as a person types them (the new-game form's "Advanced: network", and a
// game's network settings): a signaling address, relays one per line, STUN/TURN servers one per
// line. Read here, line by line, with src/net/settings.ts's own checks, so the screens hand over
// the text they hold and get back either the settings or each bad line named; they never parse an
// address themselves.
import { checkSignalingUrl, formatIceServerLines, parseIceServerLines, parseRelayLines, type IceServer } from '../../net/settings';
import type { GameNetwork } from './session';

/** At most this many relays and ICE servers, as an invite carries. */
export const MAX_NETWORK_LINES = 4;

export type NetworkField = 'signaling' | 'relays' | 'iceServers';

export interface NetworkProblem {
  readonly field: NetworkField;
  /** The line refused, as typed (trimmed); null when the list as a whole is refused (too many). */
  readonly line: string | null;
  /** Why, in English, from the checks of src/net/settings.ts (for the console and tests). */
  readonly reason: string;
}

export type NetworkLines =
  | {
      readonly ok: true;
      /** Empty: the signaling server on the host that served the app. */
      readonly signaling: readonly string[];
      readonly relays: readonly string[];
      readonly iceServers: readonly IceServer[];
    }
  | { readonly ok: false; readonly problems: readonly NetworkProblem[] };

export interface NetworkText {
  /** One address, or empty (absent: the form has no signaling field). */
  readonly signaling?: string;
  readonly relays: string;
  readonly iceServers: string;
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Every bad line of each field, in the order typed; with none, the settings checked and normalised. */
export function readNetworkLines(text: NetworkText): NetworkLines {
  const problems: NetworkProblem[] = [];
  const signaling = (text.signaling ?? '').trim();
  if (signaling !== '') {
    try {
      checkSignalingUrl(signaling);
    } catch (e) {
      problems.push({ field: 'signaling', line: signaling, reason: reasonOf(e) });
    }
  }
  // Each line alone, so that every bad one is named; then the whole text, for the parsers' own
  // normalising (a relay's /relay path, duplicates dropped, ICE urls as lists).
  for (const [field, parse] of [
    ['relays', parseRelayLines],
    ['iceServers', parseIceServerLines],
  ] as const) {
    for (const line of lines(text[field])) {
      try {
        parse(line);
      } catch (e) {
        problems.push({ field, line, reason: reasonOf(e) });
      }
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const relays = parseRelayLines(text.relays);
  const iceServers = parseIceServerLines(text.iceServers);
  if (relays.length > MAX_NETWORK_LINES) problems.push({ field: 'relays', line: null, reason: `${relays.length} > ${MAX_NETWORK_LINES}` });
  if (iceServers.length > MAX_NETWORK_LINES) problems.push({ field: 'iceServers', line: null, reason: `${iceServers.length} > ${MAX_NETWORK_LINES}` });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, signaling: signaling === '' ? [] : [signaling], relays, iceServers };
}

/** A game's relays and ICE servers back into the lines readNetworkLines reads. */
export function networkText(network: GameNetwork | undefined): { readonly relays: string; readonly iceServers: string } {
  return { relays: (network?.relays ?? []).join('\n'), iceServers: formatIceServerLines(network?.iceServers ?? []) };
}
