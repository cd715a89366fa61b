// The y-protocols sync messages as y-webrtc frames them on a data channel (message type 0 = sync).
// We build our own step 1 to re-run the handshake, and cut large step 2 / update messages into
// several update messages that any y-webrtc peer applies without knowing they were one.
import type * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import { splitUpdate } from './split-update';

const MESSAGE_SYNC = 0;
/** Room for the frame around an update: message type, sync type and the length prefix. */
const FRAME_BYTES = 12;
const EMPTY_UPDATE = new Uint8Array([0, 0]);

function frame(syncType: number, payload: Uint8Array): Uint8Array {
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, MESSAGE_SYNC);
  encoding.writeVarUint(enc, syncType);
  encoding.writeVarUint8Array(enc, payload);
  return encoding.toUint8Array(enc);
}

/** "Here is what I have; send me what I lack": the peer answers with a step 2. */
export function syncStep1Message(doc: Y.Doc): Uint8Array {
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, MESSAGE_SYNC);
  syncProtocol.writeSyncStep1(enc, doc);
  return encoding.toUint8Array(enc);
}

/**
 * The same content as `message`, in messages of at most `maxBytes` where the content allows. A step
 * 2 becomes update messages followed by an empty step 2, so the receiver counts itself synced only
 * once everything has arrived (data channels are ordered). Anything else passes through.
 */
export function splitSyncMessage(message: Uint8Array, maxBytes: number): Uint8Array[] {
  if (message.length <= maxBytes) return [message];
  let syncType: number;
  let update: Uint8Array;
  try {
    const dec = decoding.createDecoder(message);
    if (decoding.readVarUint(dec) !== MESSAGE_SYNC) return [message];
    syncType = decoding.readVarUint(dec);
    if (syncType !== syncProtocol.messageYjsSyncStep2 && syncType !== syncProtocol.messageYjsUpdate) return [message];
    update = decoding.readVarUint8Array(dec);
  } catch {
    return [message];
  }
  const parts = splitUpdate(update, maxBytes - FRAME_BYTES).map((p) => frame(syncProtocol.messageYjsUpdate, p));
  if (syncType === syncProtocol.messageYjsSyncStep2) parts.push(frame(syncProtocol.messageYjsSyncStep2, EMPTY_UPDATE));
  return parts;
}
