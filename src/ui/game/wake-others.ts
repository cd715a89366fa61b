// Waking the other phones: when this phone appends something the others must act on, it asks the
// game's relays to push to the room (Web Push, src/net/relay/README.md), once the relays hold the
// update, so a phone woken by the push finds it there. The push carries only a short hint sealed
// under the game's hint key: the worker that receives it tries each of its games' keys to learn
// which game it is for, and learns nothing else from it.
import { httpNotify } from '../../net/relay/client';
import type { RelayKeys } from '../../net/relay/keys';

/** What the others must act on: everything but the acknowledgement of a resolved phase's state
 *  hash (accepting the START is an ACK of phase "start", and after it the others have orders due). */
export function wakesOthers(m: { readonly type: string; readonly phase?: string }): boolean {
  return m.type !== 'ack' || m.phase === 'start';
}

/** The hint a push carries (sealed): a version, nothing about the game. */
export const PUSH_HINT = new TextEncoder().encode('{"v":1}');

/** Asks every relay to push to the room's other devices; failures (no push, rate limit) are only logged. */
export async function notifyRoom(relays: readonly string[], keys: RelayKeys, except: string | undefined, fetchImpl: typeof fetch = fetch): Promise<number> {
  let devices = 0;
  await Promise.all(
    relays.map(async (r) => {
      try {
        devices += await httpNotify(r, keys, PUSH_HINT, except, fetchImpl);
      } catch (e) {
        console.warn(`pacto: relay ${r} did not notify`, e instanceof Error ? e.message : e);
      }
    }),
  );
  return devices;
}

/**
 * The open app's waker: `appended` marks that a notify is due; `settled(waiting)` sends it once
 * nothing of this phone's waits for a relay any more (the relays then hold what the push is about).
 */
export class RoomWaker {
  private due = false;
  private send: (() => Promise<unknown>) | null = null;
  private waiting = () => 1;

  appended(m: { readonly type: string; readonly phase?: string }): void {
    if (wakesOthers(m)) this.due = true;
    this.check();
  }

  /** `send` asks the relays; `waiting` counts this phone's updates the relays do not hold yet. */
  attach(send: () => Promise<unknown>, waiting: () => number): void {
    this.send = send;
    this.waiting = waiting;
    this.check();
  }

  detach(): void {
    this.send = null;
  }

  check(): void {
    if (!this.due || this.send === null || this.waiting() > 0) return;
    this.due = false;
    void this.send().catch(() => undefined);
  }
}
