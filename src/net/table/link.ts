// What the table provider needs from a connection: ordered, reliable delivery of byte messages.
// A WebRTC data channel (through simple-peer) is one; an in-memory pipe in the tests is another.

export interface TableLink {
  /** Messages are delivered whole and in order, or the link closes. */
  send(message: Uint8Array): void;
  onMessage(listener: (message: Uint8Array) => void): void;
  onClose(listener: () => void): void;
  close(): void;
  readonly open: boolean;
}
