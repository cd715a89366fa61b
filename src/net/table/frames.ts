// Splitting messages into frames well under what a data channel carries: Chrome drops messages over
// about 256 KiB, and 16 KiB is the size every browser interleaves without stalling other traffic.
// The channel is ordered and reliable, so a one-byte "more follows" marker is all a frame needs.

export const TABLE_FRAME_BYTES = 16 * 1024;
const LAST = 0;
const MORE = 1;

export function toFrames(message: Uint8Array, payloadBytes = TABLE_FRAME_BYTES): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let at = 0; at === 0 || at < message.length; at += payloadBytes) {
    const part = message.subarray(at, at + payloadBytes);
    const frame = new Uint8Array(part.length + 1);
    frame[0] = at + payloadBytes < message.length ? MORE : LAST;
    frame.set(part, 1);
    frames.push(frame);
  }
  return frames;
}

/** Reassembles frames of one link; gives up on a message larger than `maxMessageBytes`. */
export class FrameJoiner {
  private parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly maxMessageBytes = 64 * 1024 * 1024) {}

  /** The whole message when `frame` completes one, else undefined. Throws on a malformed frame. */
  push(frame: Uint8Array): Uint8Array | undefined {
    const marker = frame[0];
    if (marker !== LAST && marker !== MORE) throw new Error('malformed frame');
    this.parts.push(frame.subarray(1));
    this.size += frame.length - 1;
    if (this.size > this.maxMessageBytes) {
      this.reset();
      throw new Error('message too large');
    }
    if (marker === MORE) return undefined;
    const whole = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      whole.set(p, at);
      at += p.length;
    }
    this.reset();
    return whole;
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}
