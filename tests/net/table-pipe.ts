// An in-memory stand-in for a data channel: ordered, reliable, asynchronous delivery, with a log
// of every frame sent and a switch to lose frames on purpose.
import type { TableLink } from '../../src/net/table';

export interface PipeEnd extends TableLink {
  /** Sizes of the frames this end sent. */
  readonly sent: number[];
  /** While true, frames sent from this end are lost (the link stays open). */
  dropping: boolean;
}

export function createPipe(): [PipeEnd, PipeEnd] {
  let open = true;
  const closeListeners: (() => void)[] = [];
  const make = (): PipeEnd & { deliver(m: Uint8Array): void } => {
    const listeners: ((m: Uint8Array) => void)[] = [];
    return {
      sent: [],
      dropping: false,
      deliver(m) {
        // A later task, as a data channel would; a copy, as a data channel would.
        setTimeout(() => open && listeners.forEach((l) => l(m.slice())), 0);
      },
      send(m) {
        if (!open) throw new Error('pipe closed');
        this.sent.push(m.length);
        if (!this.dropping) other(this).deliver(m);
      },
      onMessage: (l) => void listeners.push(l),
      onClose: (l) => void closeListeners.push(l),
      close() {
        if (!open) return;
        open = false;
        setTimeout(() => closeListeners.forEach((l) => l()), 0);
      },
      get open() {
        return open;
      },
    };
  };
  const a = make();
  const b = make();
  const other = (end: PipeEnd) => (end === a ? b : a);
  return [a, b];
}
