// A game's outbox and relay cursors in the store, in the shape the relay's phone side asks for
// (RelayStorage in src/net/relay/phone.ts): the store does not import net, the shapes match.
import { StoreDataError } from './errors';
import type { PactoStore } from './open';
import type { OutboxRecord } from './schema';

export interface StoredRelayState {
  begin(relays: readonly string[], state: () => Uint8Array, again?: readonly string[]): Promise<string[]>;
  pending(relays: readonly string[]): Promise<{ seq: number; update: Uint8Array; acked: readonly string[] }[]>;
  acknowledged(seq: number, relay: string, relays: readonly string[]): Promise<void>;
  loadCursor(relay: string): Promise<string | undefined>;
  saveCursor(relay: string, cursor: string): Promise<void>;
}

export function relayStorage(store: PactoStore, gameId: string): StoredRelayState {
  return {
    begin: (relays, state, again) => store.beginRelays(gameId, relays, state, again),
    async pending(relays) {
      let records: OutboxRecord[];
      try {
        records = await store.outboxList(gameId);
      } catch (e) {
        // Bad records stay where they are, named; the good ones are still sent.
        if (!(e instanceof StoreDataError)) throw e;
        console.warn('pacto:', e.message);
        records = e.partial as OutboxRecord[];
      }
      return records.filter((r) => relays.some((relay) => !r.acked.includes(relay))).map((r) => ({ seq: r.seq, update: r.update, acked: r.acked }));
    },
    acknowledged: (seq, relay, relays) => store.outboxAck(gameId, seq, relay, relays),
    loadCursor: (relay) => store.getRelayCursor(gameId, relay),
    saveCursor: (relay, cursor) => store.putRelayCursor(gameId, relay, cursor),
  };
}
