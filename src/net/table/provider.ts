// A Yjs provider over table links: the y-protocols sync handshake (step 1 / step 2) on every new link
// and on a timer, then every document update to every link except the one it came from. With one
// host linked to every guest, that makes the host a relay between guests (a star). It never looks
// inside the document: the game log is opaque here.
//
// Updates that reach the document some other way (a y-webrtc provider, IndexedDB) are forwarded to
// the table too, and updates from the table reach those other providers through the same document.
//
// What a link sends passes the same gate as on y-webrtc (the game's GameReplica, or for a bare doc
// the structural gate): updates are applied by the gate, only clean ones; a step 1 must hold a
// well-formed state vector; anti-entropy messages compare entry sets. Messages are at most 64 KiB
// (large step 2s go out in pieces), and a larger one from a link is dropped.
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { AntiEntropyLink, MESSAGE_ANTI_ENTROPY } from '../anti-entropy';
import { FRAME_LIMIT_BYTES, structuralGate, type PeerRef, type Report, type UpdateGate } from '../gate';
import { splitSyncMessage } from '../sync-messages';
import { isEntrySource } from '../y-webrtc-hooks';
import { messageType, parseStateVector, parseSyncMessage, SYNC_STEP_1, SYNC_STEP_2 } from '../yjs-update';
import { TABLE_FRAME_BYTES, FrameJoiner, toFrames } from './frames';
import type { TableLink } from './link';

const MESSAGE_SYNC = 0;
/** The handshake repeats so that one lost or one-way exchange heals by itself. */
export const TABLE_RESYNC_MS = 20_000;

export interface TableProviderOptions {
  readonly resyncMs?: number;
  readonly framePayloadBytes?: number;
}

export interface TableStatus {
  /** Links currently open. */
  readonly peers: number;
  /** Links whose side has sent us its full state at least once. */
  readonly synced: number;
}

class TablePeer {
  readonly joiner = new FrameJoiner(FRAME_LIMIT_BYTES);
  synced = false;
  /** Anti-entropy with this peer, when the provider carries a game's entry set. */
  ae?: AntiEntropyLink;
  readonly ref: PeerRef;
  constructor(
    readonly link: TableLink,
    n: number,
  ) {
    this.ref = { name: `table:${n}`, origin: this };
  }
}

let peerNumber = 0;

export class TableProvider {
  private readonly peers = new Set<TablePeer>();
  private readonly statusListeners = new Set<(s: TableStatus) => void>();
  private readonly errorListeners = new Set<(e: unknown) => void>();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private readonly framePayloadBytes: number;
  private destroyed = false;
  readonly doc: Y.Doc;
  private readonly gate: UpdateGate;

  /** `target`: the game's replica (the app), or a bare doc, checked for shape only. */
  constructor(target: UpdateGate | Y.Doc, options: TableProviderOptions = {}) {
    this.gate = target instanceof Y.Doc ? structuralGate(target, (r) => this.reportGate(r)) : target;
    this.doc = this.gate.doc;
    this.framePayloadBytes = options.framePayloadBytes ?? TABLE_FRAME_BYTES;
    this.doc.on('update', this.onDocUpdate);
    const resync = options.resyncMs ?? TABLE_RESYNC_MS;
    if (resync > 0)
      this.timer = setInterval(() => {
        for (const p of this.peers) {
          this.sendStep1(p);
          p.ae?.sendDigest();
        }
      }, resync);
  }

  get status(): TableStatus {
    let synced = 0;
    for (const p of this.peers) if (p.synced) synced++;
    return { peers: this.peers.size, synced };
  }

  onStatus(listener: (s: TableStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Malformed input from a link is dropped and reported here, never thrown. */
  onError(listener: (e: unknown) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Starts syncing over `link`; the provider closes it on destroy. Returns a function that detaches it. */
  connect(link: TableLink): () => void {
    if (this.destroyed) throw new Error('provider destroyed');
    const peer = new TablePeer(link, ++peerNumber);
    if (isEntrySource(this.gate)) peer.ae = new AntiEntropyLink(this.gate, peer.ref, (m) => this.send(peer, m));
    this.peers.add(peer);
    link.onMessage((frame) => this.onFrame(peer, frame));
    link.onClose(() => this.detach(peer));
    this.sendStep1(peer);
    this.emitStatus();
    return () => this.detach(peer);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.doc.off('update', this.onDocUpdate);
    for (const p of [...this.peers]) {
      this.detach(p);
      p.link.close();
    }
  }

  private detach(peer: TablePeer): void {
    if (this.peers.delete(peer)) this.emitStatus();
  }

  private readonly onDocUpdate = (update: Uint8Array, origin: unknown): void => {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeUpdate(encoder, update);
    const message = encoding.toUint8Array(encoder);
    for (const p of this.peers) if (p.ref.origin !== origin) this.send(p, message);
  };

  private reportGate(r: Report): void {
    this.report(new Error(`${r.kind}${r.peer === undefined ? '' : ` from ${r.peer}`}: ${r.reason ?? ''}`));
  }

  private sendStep1(peer: TablePeer): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(encoder, this.doc);
    this.send(peer, encoding.toUint8Array(encoder));
  }

  private send(peer: TablePeer, message: Uint8Array): void {
    if (!peer.link.open) return;
    try {
      for (const part of splitSyncMessage(message, FRAME_LIMIT_BYTES)) {
        if (part.length > FRAME_LIMIT_BYTES) {
          this.report(new Error(`not sent: a ${part.length}-byte message is over the limit`));
          continue;
        }
        for (const frame of toFrames(part, this.framePayloadBytes)) peer.link.send(frame);
      }
    } catch (e) {
      this.report(e);
    }
  }

  private onFrame(peer: TablePeer, frame: Uint8Array): void {
    if (!this.peers.has(peer)) return;
    try {
      const message = peer.joiner.push(frame);
      if (message) this.onMessage(peer, message);
    } catch (e) {
      this.report(e);
    }
  }

  private onMessage(peer: TablePeer, message: Uint8Array): void {
    const type = messageType(message);
    if (type === MESSAGE_ANTI_ENTROPY) {
      if (peer.ae === undefined) throw new Error('anti-entropy message on a link without an entry set');
      peer.ae.receive(message);
      return;
    }
    if (type !== MESSAGE_SYNC) throw new Error(`unknown table message type ${type}`);
    const m = parseSyncMessage(message);
    if (m === null) throw new Error('malformed sync message');
    if (m.syncType === SYNC_STEP_1) {
      if (parseStateVector(m.payload) === null) throw new Error('malformed state vector');
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, MESSAGE_SYNC);
      syncProtocol.readSyncStep1(decoding.createDecoder(message.subarray(2)), reply, this.doc);
      this.send(peer, encoding.toUint8Array(reply));
      return;
    }
    // The gate applies what is clean, with the peer as origin: onDocUpdate relays it to everyone
    // but the sender, and refused parts are reported through onError.
    this.gate.receive(m.payload, peer.ref);
    if (m.syncType === SYNC_STEP_2) {
      if (!peer.synced) {
        peer.synced = true;
        this.emitStatus();
      }
      peer.ae?.sendDigest();
    }
  }

  private report(e: unknown): void {
    for (const l of this.errorListeners) l(e);
  }

  private emitStatus(): void {
    const s = this.status;
    for (const l of this.statusListeners) l(s);
  }
}
