// The y-webrtc room of a game. The name is a hash of the game id and the room password, so the
// signaling server (which sees room names in clear) learns neither, and cannot link a room to a
// game without the invite.
import { hashHex } from '../protocol';

export function roomNameFor(gameId: string, password: string): string {
  return `pacto-${hashHex(new TextEncoder().encode(`pacto-room\n${gameId}\n${password}`))}`;
}
