// A Yjs provider over table links: the y-protocols sync handshake (step 1 / step 2) on every new link
// and on a timer, then every document update to every link except the one it came from. With one
// host linked to every guest, that makes the host a relay between guests (a star). It never looks
// inside the document: the game log is opaque here.
//
// Updates that reach the document some other way (a y-webrtc provider, IndexedDB) are forwarded to
// the table too, and updates from the table reach those other providers through the same document.
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
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
  readonly joiner = new FrameJoiner();
  synced = false;
  constructor(readonly link: TableLink) {}
}

export class TableProvider {
  private readonly peers = new Set<TablePeer>();
  private readonly statusListeners = new Set<(s: TableStatus) => void>();
  private readonly errorListeners = new Set<(e: unknown) => void>();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private readonly framePayloadBytes: number;
  private destroyed = false;

  constructor(
    readonly doc: Y.Doc,
    options: TableProviderOptions = {},
  ) {
    this.framePayloadBytes = options.framePayloadBytes ?? TABLE_FRAME_BYTES;
    doc.on('update', this.onDocUpdate);
    const resync = options.resyncMs ?? TABLE_RESYNC_MS;
    if (resync > 0) this.timer = setInterval(() => this.peers.forEach((p) => this.sendStep1(p)), resync);
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
    const peer = new TablePeer(link);
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
    for (const p of this.peers) if (p !== origin) this.send(p, message);
  };

  private sendStep1(peer: TablePeer): void {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, MESSAGE_SYNC);
    syncProtocol.writeSyncStep1(encoder, this.doc);
    this.send(peer, encoding.toUint8Array(encoder));
  }

  private send(peer: TablePeer, message: Uint8Array): void {
    if (!peer.link.open) return;
    try {
      for (const frame of toFrames(message, this.framePayloadBytes)) peer.link.send(frame);
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
    const decoder = decoding.createDecoder(message);
    const type = decoding.readVarUint(decoder);
    if (type !== MESSAGE_SYNC) throw new Error(`unknown table message type ${type}`);
    const kind = decoding.readVarUint(decoder);
    if (kind === syncProtocol.messageYjsSyncStep1) {
      const reply = encoding.createEncoder();
      encoding.writeVarUint(reply, MESSAGE_SYNC);
      syncProtocol.readSyncStep1(decoder, reply, this.doc);
      this.send(peer, encoding.toUint8Array(reply));
      return;
    }
    if (kind !== syncProtocol.messageYjsSyncStep2 && kind !== syncProtocol.messageYjsUpdate) {
      throw new Error(`unknown sync message type ${kind}`);
    }
    // Applied here rather than by y-protocols, which logs a broken update and carries on: we
    // report it. The peer is the origin, so onDocUpdate relays it to everyone but the sender.
    Y.applyUpdate(this.doc, decoding.readVarUint8Array(decoder), peer);
    if (kind === syncProtocol.messageYjsSyncStep2 && !peer.synced) {
      peer.synced = true;
      this.emitStatus();
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
