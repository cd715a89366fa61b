// A game's log in a Y.Doc: a Y.Array "log" of opaque message bytes. This layer replicates and
// persists the log; what a message means is the protocol's business, never ours.
import * as Y from 'yjs';
import { MAX_MESSAGE_BYTES } from '../protocol';
import { applyUpdateSettled } from './settle';
import { splitUpdate } from './split-update';

export const LOG_KEY = 'log';

/**
 * Largest Yjs update we put on a data channel. Chrome drops messages over 256 KiB; a quarter of
 * that leaves room for y-webrtc's framing and for peers with smaller limits.
 */
export const UPDATE_BUDGET_BYTES = 64 * 1024;

export class LogError extends Error {}

/** One Y.Doc per game. Messages are stored as bytes, so Yjs never merges two into one struct
 * and a catch-up can be cut between any two messages. */
export function createGameDoc(): Y.Doc {
  return new Y.Doc();
}

export function logArray(doc: Y.Doc): Y.Array<Uint8Array> {
  return doc.getArray<Uint8Array>(LOG_KEY);
}

export function appendMessage(doc: Y.Doc, message: Uint8Array): void {
  appendMessages(doc, [message]);
}

/** Appends in one transaction, so peers and storage see one update. */
export function appendMessages(doc: Y.Doc, messages: readonly Uint8Array[]): void {
  for (const m of messages) {
    if (!(m instanceof Uint8Array)) throw new LogError('a log message must be a Uint8Array');
    if (m.length === 0) throw new LogError('a log message cannot be empty');
    if (m.length > MAX_MESSAGE_BYTES) throw new LogError(`a log message is ${m.length} bytes; the limit is ${MAX_MESSAGE_BYTES}`);
  }
  // Copies, so a caller that reuses its buffer cannot change what was logged.
  logArray(doc).push(messages.map((m) => m.slice()));
}

/** The log in Yjs order, which is the same on every peer that has the same updates. Values that
 * are not bytes (written by something other than appendMessage) are left out. */
export function readLog(doc: Y.Doc): Uint8Array[] {
  return logArray(doc)
    .toArray()
    .filter((m): m is Uint8Array => m instanceof Uint8Array);
}

export type LogListener = (added: Uint8Array[], origin: unknown) => void;

/** Calls back with the messages each transaction added, local or remote. Returns the unsubscribe. */
export function onLog(doc: Y.Doc, listener: LogListener): () => void {
  const log = logArray(doc);
  const observer = (event: Y.YArrayEvent<Uint8Array>, tr: Y.Transaction): void => {
    const added: Uint8Array[] = [];
    for (const d of event.changes.delta) {
      if (d.insert === undefined || !Array.isArray(d.insert)) continue;
      for (const m of d.insert as unknown[]) if (m instanceof Uint8Array) added.push(m);
    }
    if (added.length > 0) listener(added, tr.origin);
  };
  log.observe(observer);
  return () => log.unobserve(observer);
}

/**
 * What a peer with `stateVector` lacks, as updates of at most `maxBytes` each (whole messages
 * never split, so a piece can exceed it only by one message). Apply them with applyUpdates.
 */
export function catchUpUpdates(doc: Y.Doc, stateVector?: Uint8Array, maxBytes = UPDATE_BUDGET_BYTES): Uint8Array[] {
  return splitUpdate(Y.encodeStateAsUpdate(doc, stateVector), maxBytes);
}

export function applyUpdates(doc: Y.Doc, updates: readonly Uint8Array[], origin?: unknown): void {
  Y.transact(
    doc,
    () => {
      for (const u of updates) applyUpdateSettled(doc, u, origin);
    },
    origin,
  );
}
