// A strict reader of Yjs v1 updates, for the one shape a game's doc ever holds: a root Y.Array
// named 'log' whose items each hold one byte array (ContentBinary), never deleted. Yjs' own
// decoder trusts its input (a crafted update can throw inside applyUpdate, add other root types or
// delete items), so every update from outside is read here first, without Yjs, and only what
// passes reaches Y.applyUpdate. The format, as yjs 13.6 writes it (node_modules/yjs: src/utils/encoding.js,
// UpdateDecoder.js, structs/Item.js):
//
//   update   = varuint groups, group*, deleteSet
//   group    = varuint structs, varuint client, varuint clock, struct*   (clocks run on from `clock`)
//   struct   = info:uint8, then
//              info&31 = 10 (Skip): varuint length                       (a gap: nothing to apply)
//              info&31 = 3 (Item, ContentBinary):
//                [info&0x80] origin = varuint client, varuint clock
//                [info&0x40] rightOrigin = varuint client, varuint clock
//                [neither]   varuint parentInfo (1: varstring root name; 0: parent id) and,
//                            if info&0x20, varstring parentSub
//                content = varuint length, bytes                          (length 1 in clock terms)
//   deleteSet = varuint clients, (varuint client, varuint n, (varuint clock, varuint len)*n)*
//
// Refused: GC structs and every other content type, any parent but the root 'log', parentSub,
// an origin of the item's own client at or after its clock (Yjs would look it up before it exists
// and throw), a non-empty delete set, a client named twice, non-minimal varuints, trailing bytes,
// counts over the limits. Never throws.

import { concatBytes } from '../protocol/bytes';
export const LOG_ROOT = 'log';
/** Yjs client ids are 32-bit (Y.Doc picks random.uint32()). */
const MAX_CLIENT = 0xffff_ffff;
/** Clocks count items; no game comes near. */
const MAX_CLOCK = 2 ** 31;
const INFO_BINARY = 3;
const INFO_SKIP = 10;
const INFO_DELETED = 1;
const INFO_GC = 0;
const BIT_ORIGIN = 0x80;
const BIT_RIGHT = 0x40;
const BIT_PARENT_SUB = 0x20;

export interface UpdateLimits {
  /** Client groups per update. */
  readonly groups: number;
  /** Structs (items and skips) per update. */
  readonly structs: number;
}

/** What a peer may send in one update: far more than one data-channel frame can hold. */
export const PEER_LIMITS: UpdateLimits = { groups: 4096, structs: 65_536 };
/** What this phone's own store may hold in one (compacted) record. */
export const STORE_LIMITS: UpdateLimits = { groups: 1 << 20, structs: 1 << 24 };

export interface YjsId {
  readonly client: number;
  readonly clock: number;
}

export interface UpdateItem extends YjsId {
  readonly content: Uint8Array;
  readonly origin: YjsId | null;
  readonly rightOrigin: YjsId | null;
  /** Byte range of the whole struct in the update (a v1 struct is self-contained). */
  readonly start: number;
  readonly end: number;
}

export interface UpdateSkip {
  readonly skip: true;
  readonly clock: number;
  readonly length: number;
  readonly start: number;
  readonly end: number;
}

export type UpdateStruct = UpdateItem | UpdateSkip;

export interface UpdateGroup {
  readonly client: number;
  readonly clock: number;
  readonly structs: UpdateStruct[];
}

export interface ParsedUpdate {
  /** True when the update has exactly the allowed shape. */
  readonly ok: boolean;
  /** Why not, when !ok (the first problem met). */
  readonly reason?: string;
  readonly groups: UpdateGroup[];
  /** Every ContentBinary item read, in order, even from a refused update (their bytes may be valid entries). */
  readonly items: UpdateItem[];
}

export const isSkip = (s: UpdateStruct): s is UpdateSkip => (s as UpdateSkip).skip === true;

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  uint8(): number | null {
    if (this.pos >= this.bytes.length) return null;
    return this.bytes[this.pos++]!;
  }

  /** A minimal LEB128 unsigned integer up to 2^53; null if malformed. */
  varuint(): number | null {
    let value = 0;
    let mult = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.bytes.length) return null;
      const b = this.bytes[this.pos++]!;
      value += (b & 0x7f) * mult;
      if (b < 0x80) {
        // Minimal: no trailing zero group (0x80 0x00 for 0).
        if (i > 0 && b === 0) return null;
        return Number.isSafeInteger(value) ? value : null;
      }
      mult *= 128;
    }
    return null;
  }

  bytesOf(length: number): Uint8Array | null {
    if (length > this.bytes.length - this.pos) return null;
    const out = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  varBytes(): Uint8Array | null {
    const n = this.varuint();
    return n === null ? null : this.bytesOf(n);
  }

  varString(max: number): string | null {
    const n = this.varuint();
    if (n === null || n > max) return null;
    const b = this.bytesOf(n);
    if (b === null) return null;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(b);
    } catch {
      return null;
    }
  }
}

/** Reads an update; see the file comment for what passes. Never throws. */
export function parseUpdate(bytes: Uint8Array, limits: UpdateLimits = PEER_LIMITS): ParsedUpdate {
  const groups: UpdateGroup[] = [];
  const items: UpdateItem[] = [];
  let reason: string | undefined;
  const forbid = (why: string): void => {
    reason ??= why;
  };
  const stop = (why: string): ParsedUpdate => ({ ok: false, reason: reason ?? why, groups, items });
  try {
    const r = new Reader(bytes);
    const groupCount = r.varuint();
    if (groupCount === null) return stop('malformed');
    if (groupCount > limits.groups) return stop('too-many-clients');
    const clients = new Set<number>();
    let structCount = 0;
    for (let g = 0; g < groupCount; g++) {
      const n = r.varuint();
      const client = r.varuint();
      const first = r.varuint();
      if (n === null || client === null || first === null) return stop('malformed');
      if (client > MAX_CLIENT) return stop('client-out-of-range');
      if (n === 0) forbid('empty-group');
      if (clients.has(client)) forbid('client-twice');
      clients.add(client);
      structCount += n;
      if (structCount > limits.structs) return stop('too-many-structs');
      const group: UpdateGroup = { client, clock: first, structs: [] };
      groups.push(group);
      let clock = first;
      for (let i = 0; i < n; i++) {
        if (clock > MAX_CLOCK) return stop('clock-out-of-range');
        const start = r.pos;
        const info = r.uint8();
        if (info === null) return stop('malformed');
        const ref = info & 31;
        if (ref === INFO_SKIP || ref === INFO_GC) {
          if (info !== ref) forbid('bad-info');
          const length = r.varuint();
          if (length === null) return stop('malformed');
          if (length === 0 || length > MAX_CLOCK) return stop('bad-length');
          if (ref === INFO_GC) forbid('gc-struct');
          else group.structs.push({ skip: true, clock, length, start, end: r.pos });
          clock += length;
          continue;
        }
        // A deleted item has an item's header and a length for content: read it to go on, refuse it.
        if (ref !== INFO_BINARY && ref !== INFO_DELETED) return stop('content-not-binary');
        let origin: YjsId | null = null;
        let rightOrigin: YjsId | null = null;
        if ((info & BIT_ORIGIN) !== 0) {
          const c = r.varuint();
          const k = r.varuint();
          if (c === null || k === null) return stop('malformed');
          origin = { client: c, clock: k };
        }
        if ((info & BIT_RIGHT) !== 0) {
          const c = r.varuint();
          const k = r.varuint();
          if (c === null || k === null) return stop('malformed');
          rightOrigin = { client: c, clock: k };
        }
        if (origin === null && rightOrigin === null) {
          const parentInfo = r.varuint();
          if (parentInfo === null) return stop('malformed');
          if (parentInfo === 1) {
            const name = r.varString(256);
            if (name === null) return stop('malformed');
            if (name !== LOG_ROOT) forbid('other-root-type');
          } else {
            forbid('nested-parent');
            if (r.varuint() === null || r.varuint() === null) return stop('malformed');
          }
          if ((info & BIT_PARENT_SUB) !== 0) {
            forbid('parent-sub');
            if (r.varString(256) === null) return stop('malformed');
          }
        } else if ((info & BIT_PARENT_SUB) !== 0) forbid('parent-sub');
        for (const o of [origin, rightOrigin]) {
          if (o === null) continue;
          if (o.client > MAX_CLIENT || o.clock > MAX_CLOCK) forbid('origin-out-of-range');
          else if (o.client === client && o.clock >= clock) forbid('origin-not-before-item');
        }
        if (ref === INFO_DELETED) {
          forbid('deleted-content');
          const length = r.varuint();
          if (length === null) return stop('malformed');
          if (length === 0 || length > MAX_CLOCK) return stop('bad-length');
          clock += length;
          continue;
        }
        const content = r.varBytes();
        if (content === null) return stop('malformed');
        const item: UpdateItem = { client, clock, content, origin, rightOrigin, start, end: r.pos };
        group.structs.push(item);
        items.push(item);
        clock += 1;
      }
      if (clock > MAX_CLOCK) return stop('clock-out-of-range');
    }
    const deletes = r.varuint();
    if (deletes === null) return stop('malformed');
    if (deletes !== 0) forbid('deletes');
    else if (!r.done) forbid('trailing-bytes');
    return reason === undefined ? { ok: true, groups, items } : { ok: false, reason, groups, items };
  } catch {
    return stop('malformed');
  }
}

function writeVarUint(out: number[], n: number): void {
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

/**
 * A v1 update holding, of each group of `update`, only its first `keep.get(client)` structs
 * (trailing skips dropped), and no deletions. Structs are copied byte for byte.
 */
export function keepPrefixes(update: Uint8Array, parsed: ParsedUpdate, keep: ReadonlyMap<number, number>): Uint8Array {
  const kept: { group: UpdateGroup; n: number }[] = [];
  for (const group of parsed.groups) {
    let n = Math.min(keep.get(group.client) ?? 0, group.structs.length);
    while (n > 0 && isSkip(group.structs[n - 1]!)) n--;
    if (n > 0) kept.push({ group, n });
  }
  const head: number[] = [];
  writeVarUint(head, kept.length);
  const parts: Uint8Array[] = [Uint8Array.from(head)];
  for (const { group, n } of kept) {
    const h: number[] = [];
    writeVarUint(h, n);
    writeVarUint(h, group.client);
    writeVarUint(h, group.clock);
    parts.push(Uint8Array.from(h), update.subarray(group.structs[0]!.start, group.structs[n - 1]!.end));
  }
  parts.push(Uint8Array.of(0));
  return concatBytes(...parts);
}

/** An update with nothing in it (what an empty sync step 2 carries). */
export const EMPTY_UPDATE = Uint8Array.of(0, 0);

/** Reads a v1 state vector strictly: varuint n, then n (client, clock) pairs, no client twice. */
export function parseStateVector(bytes: Uint8Array, maxClients = PEER_LIMITS.groups * 4): Map<number, number> | null {
  try {
    const r = new Reader(bytes);
    const n = r.varuint();
    if (n === null || n > maxClients) return null;
    const out = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const client = r.varuint();
      const clock = r.varuint();
      if (client === null || clock === null || client > MAX_CLIENT || clock > MAX_CLOCK || out.has(client)) return null;
      out.set(client, clock);
    }
    return r.done ? out : null;
  } catch {
    return null;
  }
}

export const MESSAGE_SYNC = 0;
export const SYNC_STEP_1 = 0;
export const SYNC_STEP_2 = 1;
export const SYNC_UPDATE = 2;

/** A y-protocols sync message as y-webrtc frames it: varuint 0, varuint sync type, var bytes, nothing after. */
export function parseSyncMessage(message: Uint8Array): { syncType: number; payload: Uint8Array } | null {
  const r = new Reader(message);
  if (r.varuint() !== MESSAGE_SYNC) return null;
  const syncType = r.varuint();
  if (syncType === null || syncType > SYNC_UPDATE) return null;
  const payload = r.varBytes();
  if (payload === null || !r.done) return null;
  return { syncType, payload };
}

/** Frames a sync message: varuint 0, varuint sync type, var bytes. */
export function syncMessage(syncType: number, payload: Uint8Array): Uint8Array {
  const head: number[] = [];
  writeVarUint(head, MESSAGE_SYNC);
  writeVarUint(head, syncType);
  writeVarUint(head, payload.length);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
}

/** The first varuint of a message (its type), or null. */
export function messageType(message: Uint8Array): number | null {
  return new Reader(message).varuint();
}
