// Splits one Yjs update into several smaller updates that, applied in any order, give the same
// document. WebRTC data channels drop messages above a limit (256 KiB in Chrome), and y-webrtc
// answers a sync step 1 with the whole missing state in one message, so a long game's catch-up
// must travel in pieces. Structs are never cut: a piece holds whole structs, so only a struct
// that is alone larger than the budget (a log message is far smaller) makes a piece over budget.
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';

type Struct = Y.Item | Y.GC | Y.Skip;

interface Run {
  readonly client: number;
  readonly structs: Struct[];
}

/** Bytes a piece spends besides its structs: counts, client id and start clock (varuints). */
const PIECE_OVERHEAD = 8;
const RUN_OVERHEAD = 16;
const EMPTY_UPDATE_BYTES = 2;

function structBytes(s: Struct): number {
  const enc = new Y.UpdateEncoderV1();
  s.write(enc, 0);
  return enc.toUint8Array().length;
}

function encodePiece(runs: readonly Run[]): Uint8Array {
  const enc = new Y.UpdateEncoderV1();
  encoding.writeVarUint(enc.restEncoder, runs.length);
  for (const run of runs) {
    while (run.structs[run.structs.length - 1] instanceof Y.Skip) run.structs.pop();
    encoding.writeVarUint(enc.restEncoder, run.structs.length);
    enc.writeClient(run.client);
    encoding.writeVarUint(enc.restEncoder, run.structs[0]!.id.clock);
    for (const s of run.structs) s.write(enc, 0);
  }
  encoding.writeVarUint(enc.restEncoder, 0); // no deletions in a struct piece
  return enc.toUint8Array();
}

/** The update's delete set alone, or null when it deletes nothing. */
function deletionsOnly(update: Uint8Array, structs: readonly Struct[]): Uint8Array | null {
  const past = new Map<number, number>();
  for (const s of structs) past.set(s.id.client, Math.max(past.get(s.id.client) ?? 0, s.id.clock + s.length));
  const rest = Y.diffUpdate(update, Y.encodeStateVector(past));
  return rest.length <= EMPTY_UPDATE_BYTES ? null : rest;
}

/**
 * Pieces of at most `maxBytes` each (V1 encoding). An update already under the budget comes back
 * as is. Deletions travel in the last piece, after every struct they may refer to.
 */
export function splitUpdate(update: Uint8Array, maxBytes: number): Uint8Array[] {
  if (update.length <= maxBytes) return [update];
  const { structs } = Y.decodeUpdate(update) as { structs: Struct[] };
  const pieces: Uint8Array[] = [];
  let runs: Run[] = [];
  let size = PIECE_OVERHEAD;

  const flush = (): void => {
    if (runs.length > 0) pieces.push(encodePiece(runs));
    runs = [];
    size = PIECE_OVERHEAD;
  };

  for (const s of structs) {
    const run = runs[runs.length - 1];
    const tail = run?.structs[run.structs.length - 1];
    const continues = run !== undefined && tail !== undefined && tail.id.client === s.id.client && tail.id.clock + tail.length === s.id.clock;
    // A piece never starts a run with a gap marker: the receiver needs nothing for a gap.
    if (s instanceof Y.Skip) {
      if (continues) run.structs.push(s);
      continue;
    }
    const bytes = structBytes(s);
    // A piece names each client once (the decoder keeps one run per client).
    const clientAgain = !continues && runs.some((r) => r.client === s.id.client);
    if (runs.length > 0 && (clientAgain || size + bytes + (continues ? 0 : RUN_OVERHEAD) > maxBytes)) {
      flush();
      runs.push({ client: s.id.client, structs: [s] });
      size += bytes + RUN_OVERHEAD;
    } else if (continues) {
      run.structs.push(s);
      size += bytes;
    } else {
      runs.push({ client: s.id.client, structs: [s] });
      size += bytes + RUN_OVERHEAD;
    }
  }
  flush();
  const deletions = deletionsOnly(update, structs);
  if (deletions !== null) pieces.push(deletions);
  return pieces;
}
