// The gate every incoming Yjs update passes before it is applied, stored or forwarded. A game's
// GameReplica (replica.ts) is the real gate: it admits the entries an update carries and applies
// only what is clean. A bare Y.Doc (transport tests, tools) gets the structural gate below: the
// update's shape is checked, entries are not.
import * as Y from 'yjs';
import { applyUpdateSettled } from './settle';
import { parseUpdate, PEER_LIMITS, type UpdateLimits } from './yjs-update';

/** Who sent something: a name for reports and the Yjs transaction origin of what it brings. */
export interface PeerRef {
  readonly name: string;
  readonly origin: unknown;
}

/** Something a peer (or the store) sent that an honest phone would not: kept and shown, never thrown. */
export interface Report {
  readonly kind:
    | 'update-refused'
    | 'update-cut'
    | 'entry-refused'
    | 'fork-by-yjs-id'
    | 'frame-too-large'
    | 'message-refused'
    /** A relay blob that does not open under the game's key, is not base64, or is damaged on the relay. */
    | 'relay-blob-refused'
    /** A relay refused an append for good (too large, room full, forbidden). */
    | 'relay-refused'
    | 'internal-error';
  readonly peer?: string;
  readonly reason?: string;
  /** The author(s) whose signed entries are involved (misconduct when it is one author's doing). */
  readonly authors?: readonly string[];
  readonly ids?: readonly string[];
  readonly at?: { readonly client: number; readonly clock: number };
}

export interface GateResult {
  /** The update was applied whole. */
  readonly clean: boolean;
  /** Items applied to the doc (whole update, or a clean prefix of each client's run). */
  readonly applied: number;
  /** Why it was refused or cut. */
  readonly reason?: string;
}

export interface ReceiveOptions {
  /** Largest update accepted (MAX_UPDATE_BYTES from peers; the store's own records may be larger). */
  readonly maxBytes?: number;
  readonly limits?: UpdateLimits;
}

/** Updates larger than this are refused unread: no honest sender makes one (they split at 64 KiB). */
export const MAX_UPDATE_BYTES = 1024 * 1024;
/** Nothing larger is ever sent on a data channel, and anything larger received is dropped. */
export const FRAME_LIMIT_BYTES = 64 * 1024;

export interface UpdateGate {
  readonly doc: Y.Doc;
  /** Checks an update from `peer` and applies to the doc what is clean. Never throws. */
  receive(update: Uint8Array, peer: PeerRef, options?: ReceiveOptions): GateResult;
  report(report: Report): void;
  /** Checks the update's signatures ahead, asynchronously (GameReplica); null: nothing to wait for. */
  prepare?(update: Uint8Array): Promise<void> | null;
}

/** Checks shape only; a refused update is dropped whole. */
export function structuralGate(doc: Y.Doc, onReport?: (r: Report) => void): UpdateGate {
  const report = (r: Report): void => onReport?.(r);
  return {
    doc,
    report,
    receive(update, peer, options = {}) {
      if (update.length > (options.maxBytes ?? MAX_UPDATE_BYTES)) {
        report({ kind: 'update-refused', peer: peer.name, reason: 'update-too-large' });
        return { clean: false, applied: 0, reason: 'update-too-large' };
      }
      const parsed = parseUpdate(update, options.limits ?? PEER_LIMITS);
      if (!parsed.ok) {
        report({ kind: 'update-refused', peer: peer.name, reason: parsed.reason });
        return { clean: false, applied: 0, reason: parsed.reason ?? 'refused' };
      }
      try {
        applyUpdateSettled(doc, update, peer.origin);
      } catch (e) {
        report({ kind: 'internal-error', peer: peer.name, reason: e instanceof Error ? e.message : String(e) });
        return { clean: false, applied: 0, reason: 'yjs-threw' };
      }
      return { clean: true, applied: parsed.items.length };
    },
  };
}

export function isGate(x: unknown): x is UpdateGate {
  return typeof x === 'object' && x !== null && typeof (x as UpdateGate).receive === 'function' && (x as UpdateGate).doc instanceof Y.Doc;
}
