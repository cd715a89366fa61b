// The binary form of signed payloads (protocol versions 3, 4 and 5; README.md "Wire form and ids").
//
// A payload is written field by field in a fixed order per type: unsigned integers as LEB128
// varints, hashes, keys, points and ciphertexts as their raw bytes (never hex or base64), powers,
// phases, message types and small choices as one byte, byte strings and texts with a varint length.
// In memory a decoded payload is the very object a version-2 (JSON) payload gives (hex ids and
// keys, base64url boxes), so nothing past this file knows which encoding an entry used.
//
// One byte form: decodePayload accepts bytes only if encoding what they decode to gives those
// very bytes back (no leading zeros in a varint, sorted record keys, no trailing bytes, one
// encoding of a phase's year...), so one message has one id.
//
// Every binary payload of this and later versions begins with version (varint), type (one byte,
// CREATE is 0) and game id (16 bytes): a phone reads that much of a newer version's entry to say
// "this game was made with a newer Pacto" (peekBinary).
import { POWERS, type Power } from '../rules';
import { compareText, fromBase64, fromHex, fromUtf8, toBase64, toHex, utf8 } from './bytes';
import { canonicalDecode, canonicalEncode, hashHex } from './canonical';
import {
  ACK_IN_LOCK_VERSION,
  REVEAL_COMPLAINT_VERSION,
  COMPACT_VERSION,
  DERIVED_ESCROW_VERSION,
  LOCK_LIST_VERSION,
  PIN_VERSION,
  startKeys,
  type Complaint,
  type EscrowPayload,
  type MessageType,
  type Payload,
  type Settings,
} from './messages';

/** The first protocol version whose payloads are binary. */
export const BINARY_VERSION = 3;
/**
 * The binary versions read and written. 3 and 4 differ in a REVEAL only: 3 keys its LOCKs by
 * author and its secrets and shares by commit id; 4 lists the LOCK ids (sorted), the secrets and
 * the shares (messages.ts LOCK_LIST_VERSION). 5 is 4 with the changes its constants name: a
 * commit's escrow (the ephemeral point, then one commitment per holder, no share;
 * DERIVED_ESCROW_VERSION), a LOCK's ACK (ACK_IN_LOCK_VERSION), and a START's and a HANDOVER's
 * escrow keys (PIN_VERSION). 6 signs exactly 5's layout (with v = 6) and is carried in the compact
 * wire form (compactPayload, expandWire; COMPACT_VERSION). 7 is 6 byte for byte (with v = 7): a
 * version 7 game differs in its clock only (messages.ts CLOCK_VERSION).
 */
export const BINARY_VERSIONS: readonly number[] = [3, 4, 5, 6, 7];

/** Whether entries of this version may be carried compact: version 6 and every later one read (7). */
export function compactVersion(version: number): boolean {
  return version >= COMPACT_VERSION && BINARY_VERSIONS.includes(version);
}

/** Thrown by encodePayload for a value that has no binary form (a bug in the caller, never peer input). */
export class CodecError extends Error {}

/** Message kinds as one byte. Fixed forever from version 3 on: only ever append. */
const TYPES: readonly MessageType[] = [
  'create',
  'join',
  'start',
  'commit',
  'final',
  'lock',
  'reveal',
  'timeout',
  'clock',
  'concede',
  'chat',
  'ack',
  'lot-commit',
  'alliance',
  'handover',
];
const SEASONS = ['spring', 'fall', 'winter'] as const;
const KINDS = ['movement', 'retreat', 'adjustment'] as const;
const PHASE_RE = /^(\d{1,5})-(spring|fall|winter)-(movement|retreat|adjustment)$/;
/** Phase tags: 0 the lot, 1 'start' (the START acceptance ACK), 2 + 3·season + kind then the year. */
const TAG_LOT = 0;
const TAG_START = 1;
const TAG_PHASE = 2;
const SLOT_KEY = POWERS.length;
const MAX_BLOB = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Writing

class Writer {
  private buf = new Uint8Array(512);
  private n = 0;
  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  u8(x: number): void {
    this.room(1);
    this.buf[this.n++] = x;
  }
  varint(x: unknown): void {
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) throw new CodecError(`not a non-negative safe integer: ${String(x)}`);
    let v = x;
    while (v >= 128) {
      this.u8((v % 128) + 128);
      v = Math.floor(v / 128);
    }
    this.u8(v);
  }
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.n);
    this.n += bytes.length;
  }
  blob(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.raw(bytes);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

function hexBytes(x: unknown, n: number): Uint8Array {
  const b = typeof x === 'string' ? fromHex(x) : null;
  if (b === null || b.length !== n) throw new CodecError(`not ${n} bytes of hex`);
  return b;
}
function b64Bytes(x: unknown): Uint8Array {
  const b = typeof x === 'string' ? fromBase64(x) : null;
  if (b === null) throw new CodecError('not base64url');
  return b;
}
function b64Fixed(x: unknown, n: number): Uint8Array {
  const b = b64Bytes(x);
  if (b.length !== n) throw new CodecError(`not ${n} bytes of base64url`);
  return b;
}
function textBytes(x: unknown): Uint8Array {
  if (typeof x !== 'string') throw new CodecError('not a text');
  const b = utf8(x);
  if (fromUtf8(b) !== x) throw new CodecError('text is not valid UTF-16 (lone surrogate)');
  return b;
}

const w = {
  id: (o: Writer, x: unknown) => o.raw(hexBytes(x, 16)),
  key: (o: Writer, x: unknown) => o.raw(hexBytes(x, 32)),
  b32: (o: Writer, x: unknown) => o.raw(b64Fixed(x, 32)),
  blob: (o: Writer, x: unknown) => o.blob(b64Bytes(x)),
  text: (o: Writer, x: unknown) => o.blob(textBytes(x)),
  bool: (o: Writer, x: unknown) => {
    if (typeof x !== 'boolean') throw new CodecError('not a boolean');
    o.u8(x ? 1 : 0);
  },
  power: (o: Writer, x: unknown) => {
    const i = POWERS.indexOf(x as Power);
    if (i < 0) throw new CodecError(`not a power: ${String(x)}`);
    o.u8(i);
  },
  slot: (o: Writer, x: unknown) => {
    const i = POWERS.indexOf(x as Power);
    if (i >= 0) o.u8(i);
    else {
      o.u8(SLOT_KEY);
      w.key(o, x);
    }
  },
  phase: (o: Writer, x: unknown) => {
    if (x === 'lot') return o.u8(TAG_LOT);
    if (x === 'start') return o.u8(TAG_START);
    const m = typeof x === 'string' ? PHASE_RE.exec(x) : null;
    if (m === null || String(Number(m[1])) !== m[1]) throw new CodecError(`not a phase key: ${String(x)}`);
    o.u8(TAG_PHASE + 3 * SEASONS.indexOf(m[2] as (typeof SEASONS)[number]) + KINDS.indexOf(m[3] as (typeof KINDS)[number]));
    o.varint(Number(m[1]));
  },
  list: <T>(o: Writer, x: unknown, item: (o: Writer, x: T) => void) => {
    if (!Array.isArray(x)) throw new CodecError('not a list');
    o.varint(x.length);
    for (const v of x as T[]) item(o, v);
  },
  /** Strictly increasing (compareText): one form for a set. */
  sortedList: (o: Writer, x: unknown, item: (o: Writer, x: unknown) => void) => {
    if (!Array.isArray(x)) throw new CodecError('not a list');
    for (let k = 1; k < x.length; k++)
      if (typeof x[k] !== 'string' || compareText(x[k - 1] as string, x[k] as string) >= 0) throw new CodecError('a set is written sorted, once each');
    w.list(o, x, item);
  },
  /** A record's entries in key order (compareText). */
  record: (o: Writer, x: unknown, key: (o: Writer, k: string) => void, value: (o: Writer, v: unknown) => void) => {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new CodecError('not a record');
    const entries = Object.entries(x as Record<string, unknown>).sort((a, b) => compareText(a[0], b[0]));
    o.varint(entries.length);
    for (const [k, v] of entries) {
      key(o, k);
      value(o, v);
    }
  },
  nullable: <T>(o: Writer, x: T | null, item: (o: Writer, x: T) => void) => {
    if (x === null) o.u8(0);
    else {
      o.u8(1);
      item(o, x);
    }
  },
  /** Before version 5: commitments, ephemeral point, encrypted shares. Version 5: ephemeral point, then the S_i (no share). */
  escrow: (o: Writer, x: unknown, v: number) => {
    const e = x as EscrowPayload;
    if (typeof e !== 'object' || e === null) throw new CodecError('not an escrow');
    if (v >= DERIVED_ESCROW_VERSION) {
      if (!Array.isArray(e.s) || e.s.length !== 0) throw new CodecError('a version 5 escrow carries no share');
      w.nullable(o, e.e, w.b32);
      w.list(o, e.c, w.b32);
      return;
    }
    w.list(o, e.c, w.b32);
    w.nullable(o, e.e, w.b32);
    w.list(o, e.s, w.b32);
  },
  complaint: (o: Writer, x: unknown) => {
    const c = x as Complaint;
    if (typeof c !== 'object' || c === null) throw new CodecError('not a complaint');
    w.id(o, c.commit);
    w.b32(o, c.k);
    o.raw(b64Fixed(c.proof, 64));
  },
};

/** The sealed bytes of a commit; its hash is not written, it is the hash of these bytes. */
function sealedWithHash(o: Writer, sealed: unknown, hash: unknown): void {
  const bytes = b64Bytes(sealed);
  if (hash !== hashHex(bytes)) throw new CodecError('commit hash is not the hash of its sealed bytes');
  o.blob(bytes);
}

/**
 * The binary form of a payload (its `v` must be one of BINARY_VERSIONS). Throws CodecError for
 * anything without one: fields of the wrong kind, a commit hash that is not its box's, unknown
 * fields, a version 4 REVEAL whose LOCK ids are not sorted and distinct.
 */
export function encodePayload(p: Payload): Uint8Array {
  const o = new Writer();
  if (!BINARY_VERSIONS.includes(p.v)) throw new CodecError(`not a binary version: ${String(p.v)}`);
  const type = TYPES.indexOf(p.type);
  if (type < 0) throw new CodecError(`unknown type: ${String(p.type)}`);
  const known = FIELDS[p.type];
  for (const k of Object.keys(p))
    if (!known.includes(k) && (p as unknown as Record<string, unknown>)[k] !== undefined) throw new CodecError(`unknown field: ${k}`);
  o.varint(p.v);
  o.u8(type);
  w.id(o, p.game);
  w.key(o, p.from);
  o.varint(p.seq);
  o.varint(p.time);
  switch (p.type) {
    case 'create':
      w.id(o, p.salt);
      o.blob(canonicalEncode(p.settings));
      break;
    case 'join':
      w.text(o, p.name);
      w.key(o, p.box);
      w.b32(o, p.escrow);
      w.nullable(o, p.power, w.power);
      break;
    case 'start':
      w.nullable(o, p.roster, (o2, roster) => {
        const keys = Object.keys(roster);
        if (keys.length !== POWERS.length || !POWERS.every((q) => keys.includes(q))) throw new CodecError('a roster names the seven powers');
        for (const q of POWERS) w.key(o2, roster[q]);
      });
      w.list(o, p.participants, w.key);
      // Version 5: the escrow key of each key the START names, in that key order (the keys are not written).
      if (p.v >= PIN_VERSION) {
        const escrow = p.escrow;
        if (typeof escrow !== 'object' || escrow === null || Array.isArray(escrow)) throw new CodecError('a START pins escrow keys from version 5 on');
        const keys = startKeys(p);
        const named = Object.keys(escrow).sort(compareText);
        if (named.length !== keys.length || named.some((k, n) => k !== keys[n])) throw new CodecError('a START pins one escrow key per key it names');
        w.list(o, keys, (o2, k: string) => w.b32(o2, escrow[k]));
      } else if (p.escrow !== undefined) throw new CodecError('escrow keys in a START before version 5');
      break;
    case 'commit':
      w.phase(o, p.phase);
      w.power(o, p.power);
      sealedWithHash(o, p.sealed, p.hash);
      w.escrow(o, p.escrow, p.v);
      break;
    case 'lot-commit':
      sealedWithHash(o, p.sealed, p.hash);
      w.escrow(o, p.escrow, p.v);
      break;
    case 'final':
      w.phase(o, p.phase);
      w.power(o, p.power);
      w.id(o, p.commit);
      break;
    case 'lock':
      w.phase(o, p.phase);
      w.record(o, p.finals, w.slot, w.id);
      w.record(o, p.heads, w.slot, w.id);
      w.list(o, p.complaints, w.complaint);
      // Version 5: the author's ACK of the phase before, folded in (a state hash or null).
      if (p.v >= ACK_IN_LOCK_VERSION) {
        if (p.ack === undefined) throw new CodecError('a version 5 LOCK says its ack (a hash or null)');
        w.nullable(o, p.ack, w.id);
      } else if (p.ack !== undefined) throw new CodecError('a LOCK before version 5 carries no ack');
      break;
    case 'reveal':
      w.phase(o, p.phase);
      // Version 4 names the LOCKs alone (each one's key is its signer) and lists secrets and
      // shares in the order of their commits' ids; 3 keyed all three.
      if (p.v >= LOCK_LIST_VERSION) {
        w.sortedList(o, p.locks, w.id);
        w.list(o, p.secrets, w.b32);
        w.list(o, p.shares, w.b32);
        // Version 6: complaints in the place of shares (ballot.ts revealOwes), sorted by commit id.
        if (p.v >= REVEAL_COMPLAINT_VERSION) {
          const complaints = p.complaints;
          if (!Array.isArray(complaints)) throw new CodecError('a version 6 REVEAL lists its complaints (maybe none)');
          if (complaints.some((c: Complaint, n) => n > 0 && compareText(complaints[n - 1]!.commit, c.commit) >= 0))
            throw new CodecError("a REVEAL's complaints are sorted by commit, one per commit");
          w.list(o, complaints, w.complaint);
        } else if (p.complaints !== undefined) throw new CodecError('a REVEAL before version 6 carries no complaint');
      } else {
        w.record(o, p.locks, w.key, w.id);
        w.record(o, p.secrets, w.id, w.b32);
        w.record(o, p.shares, w.id, w.b32);
      }
      break;
    case 'timeout':
      w.phase(o, p.phase);
      w.list(o, p.slots, w.slot);
      break;
    case 'clock':
      w.phase(o, p.phase);
      if (p.stage !== 'orders' && p.stage !== 'reveal') throw new CodecError('not a clock stage');
      o.u8(p.stage === 'orders' ? 0 : 1);
      break;
    case 'concede':
      w.phase(o, p.phase);
      w.power(o, p.power);
      break;
    case 'chat':
      w.record(o, p.keys, w.key, w.blob);
      w.blob(o, p.nonce);
      w.blob(o, p.sealed);
      break;
    case 'ack':
      w.phase(o, p.phase);
      w.id(o, p.hash);
      break;
    case 'alliance':
      w.phase(o, p.phase);
      w.power(o, p.power);
      w.list(o, p.powers, w.power);
      w.bool(o, p.yes);
      break;
    case 'handover':
      w.phase(o, p.phase);
      w.power(o, p.power);
      w.key(o, p.to);
      w.id(o, p.start);
      if (p.v >= PIN_VERSION) w.b32(o, p.escrow);
      else if (p.escrow !== undefined) throw new CodecError('an escrow key in a HANDOVER before version 5');
      break;
  }
  return o.done();
}

const BASE_FIELDS = ['v', 'type', 'game', 'from', 'seq', 'time'];
const FIELDS: Record<MessageType, readonly string[]> = {
  create: [...BASE_FIELDS, 'salt', 'settings'],
  join: [...BASE_FIELDS, 'name', 'box', 'escrow', 'power'],
  start: [...BASE_FIELDS, 'roster', 'participants', 'escrow'],
  commit: [...BASE_FIELDS, 'phase', 'power', 'sealed', 'hash', 'escrow'],
  'lot-commit': [...BASE_FIELDS, 'sealed', 'hash', 'escrow'],
  final: [...BASE_FIELDS, 'phase', 'power', 'commit'],
  lock: [...BASE_FIELDS, 'phase', 'finals', 'heads', 'complaints', 'ack'],
  reveal: [...BASE_FIELDS, 'phase', 'locks', 'secrets', 'shares', 'complaints'],
  timeout: [...BASE_FIELDS, 'phase', 'slots'],
  clock: [...BASE_FIELDS, 'phase', 'stage'],
  concede: [...BASE_FIELDS, 'phase', 'power'],
  chat: [...BASE_FIELDS, 'keys', 'nonce', 'sealed'],
  ack: [...BASE_FIELDS, 'phase', 'hash'],
  alliance: [...BASE_FIELDS, 'phase', 'power', 'powers', 'yes'],
  handover: [...BASE_FIELDS, 'phase', 'power', 'to', 'start', 'escrow'],
};

// ---------------------------------------------------------------------------------------------
// Reading: every failure is a DecodeError caught in decodePayload, never a throw that escapes.

class DecodeError extends Error {}

class Reader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  u8(): number {
    if (this.pos >= this.b.length) throw new DecodeError('truncated');
    return this.b[this.pos++]!;
  }
  varint(): number {
    let x = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      const byte = this.u8();
      x += (byte & 127) * scale;
      if (byte < 128) break;
      if (i >= 7) throw new DecodeError('varint-too-long');
      scale *= 128;
    }
    if (!Number.isSafeInteger(x)) throw new DecodeError('varint-too-large');
    return x;
  }
  raw(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new DecodeError('truncated');
    const out = this.b.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  blob(max = MAX_BLOB): Uint8Array {
    const n = this.varint();
    if (n > max) throw new DecodeError('too-long');
    return this.raw(n);
  }
  count(max: number): number {
    const n = this.varint();
    if (n > max) throw new DecodeError('too-many');
    return n;
  }
  end(): void {
    if (this.pos !== this.b.length) throw new DecodeError('trailing-bytes');
  }
}

const r = {
  id: (i: Reader) => toHex(i.raw(16)),
  key: (i: Reader) => toHex(i.raw(32)),
  b32: (i: Reader) => toBase64(i.raw(32)),
  blob: (i: Reader) => toBase64(i.blob()),
  text: (i: Reader) => {
    const t = fromUtf8(i.blob(1024));
    if (t === null) throw new DecodeError('not-utf8');
    return t;
  },
  bool: (i: Reader) => {
    const b = i.u8();
    if (b > 1) throw new DecodeError('not-a-boolean');
    return b === 1;
  },
  power: (i: Reader): Power => {
    const p = POWERS[i.u8()];
    if (p === undefined) throw new DecodeError('not-a-power');
    return p;
  },
  slot: (i: Reader): string => {
    const tag = i.u8();
    if (tag === SLOT_KEY) return r.key(i);
    const p = POWERS[tag];
    if (p === undefined) throw new DecodeError('not-a-slot');
    return p;
  },
  phase: (i: Reader): string => {
    const tag = i.u8();
    if (tag === TAG_LOT) return 'lot';
    if (tag === TAG_START) return 'start';
    const k = tag - TAG_PHASE;
    if (k < 0 || k >= 9) throw new DecodeError('not-a-phase');
    return `${i.varint()}-${SEASONS[Math.floor(k / 3)]!}-${KINDS[k % 3]!}`;
  },
  list: <T>(i: Reader, max: number, item: (i: Reader) => T): T[] => {
    const n = i.count(max);
    const out: T[] = [];
    for (let k = 0; k < n; k++) out.push(item(i));
    return out;
  },
  record: <T>(i: Reader, max: number, key: (i: Reader) => string, value: (i: Reader) => T): Record<string, T> => {
    const n = i.count(max);
    const out: Record<string, T> = {};
    let last: string | null = null;
    for (let k = 0; k < n; k++) {
      const name = key(i);
      if (last !== null && compareText(last, name) >= 0) throw new DecodeError('not-canonical');
      last = name;
      out[name] = value(i);
    }
    return out;
  },
  /** A set: strictly increasing (compareText), else not its one form. */
  sortedList: (i: Reader, max: number, item: (i: Reader) => string): string[] => {
    const out = r.list(i, max, item);
    for (let k = 1; k < out.length; k++) if (compareText(out[k - 1]!, out[k]!) >= 0) throw new DecodeError('not-canonical');
    return out;
  },
  nullable: <T>(i: Reader, item: (i: Reader) => T): T | null => {
    const tag = i.u8();
    if (tag > 1) throw new DecodeError('not-canonical');
    return tag === 0 ? null : item(i);
  },
  escrow: (i: Reader, v: number): EscrowPayload => {
    if (v < DERIVED_ESCROW_VERSION) return { c: r.list(i, 8, r.b32), e: r.nullable(i, r.b32), s: r.list(i, 8, r.b32) };
    const e = r.nullable(i, r.b32);
    return { c: r.list(i, 8, r.b32), e, s: [] };
  },
  complaint: (i: Reader): Complaint => ({ commit: r.id(i), k: r.b32(i), proof: toBase64(i.raw(64)) }),
  sealed: (i: Reader): { sealed: string; hash: string } => {
    const bytes = i.blob();
    return { sealed: toBase64(bytes), hash: hashHex(bytes) };
  },
};

/** A version 6 REVEAL's complaints: sorted by commit, one per commit (one byte form). */
function revealComplaints(i: Reader): Complaint[] {
  const list = r.list(i, 64, r.complaint);
  if (list.some((c, n) => n > 0 && compareText(list[n - 1]!.commit, c.commit) >= 0)) throw new DecodeError('not-canonical');
  return list;
}

function readBody(i: Reader, type: MessageType, v: number): Record<string, unknown> {
  switch (type) {
    case 'create': {
      const salt = r.id(i);
      const settings = canonicalDecode(i.blob(8 * 1024));
      if (!settings.ok) throw new DecodeError('settings-not-canonical');
      return { salt, settings: settings.value as Settings };
    }
    case 'join':
      return { name: r.text(i), box: r.key(i), escrow: r.b32(i), power: r.nullable(i, r.power) };
    case 'start': {
      const roster = r.nullable(i, (i2) => Object.fromEntries(POWERS.map((q) => [q, r.key(i2)])) as Record<Power, string>);
      const participants = r.list(i, 64, r.key);
      if (v < PIN_VERSION) return { roster, participants };
      const keys = startKeys({ roster, participants });
      const points = r.list(i, 64, r.b32);
      if (points.length !== keys.length) throw new DecodeError('start-escrow-not-one-per-key');
      return { roster, participants, escrow: Object.fromEntries(keys.map((k, n) => [k, points[n]!])) };
    }
    case 'commit':
      return { phase: r.phase(i), power: r.power(i), ...r.sealed(i), escrow: r.escrow(i, v) };
    case 'lot-commit':
      return { ...r.sealed(i), escrow: r.escrow(i, v) };
    case 'final':
      return { phase: r.phase(i), power: r.power(i), commit: r.id(i) };
    case 'lock':
      return {
        phase: r.phase(i),
        finals: r.record(i, 64, r.slot, r.id),
        heads: r.record(i, 64, r.slot, r.id),
        complaints: r.list(i, 64, r.complaint),
        ...(v >= ACK_IN_LOCK_VERSION ? { ack: r.nullable(i, r.id) } : {}),
      };
    case 'reveal':
      return {
        phase: r.phase(i),
        ...(v >= LOCK_LIST_VERSION
          ? {
              locks: r.sortedList(i, 64, r.id),
              secrets: r.list(i, 64, r.b32),
              shares: r.list(i, 64, r.b32),
              ...(v >= REVEAL_COMPLAINT_VERSION ? { complaints: revealComplaints(i) } : {}),
            }
          : { locks: r.record(i, 64, r.key, r.id), secrets: r.record(i, 64, r.id, r.b32), shares: r.record(i, 64, r.id, r.b32) }),
      };
    case 'timeout':
      return { phase: r.phase(i), slots: r.list(i, 64, r.slot) };
    case 'clock': {
      const phase = r.phase(i);
      const stage = i.u8();
      if (stage > 1) throw new DecodeError('not-a-stage');
      return { phase, stage: stage === 0 ? 'orders' : 'reveal' };
    }
    case 'concede':
      return { phase: r.phase(i), power: r.power(i) };
    case 'chat':
      return { keys: r.record(i, 64, r.key, r.blob), nonce: r.blob(i), sealed: r.blob(i) };
    case 'ack':
      return { phase: r.phase(i), hash: r.id(i) };
    case 'alliance':
      return { phase: r.phase(i), power: r.power(i), powers: r.list(i, 16, r.power), yes: r.bool(i) };
    case 'handover':
      return { phase: r.phase(i), power: r.power(i), to: r.key(i), start: r.id(i), ...(v >= PIN_VERSION ? { escrow: r.b32(i) } : {}) };
  }
}

export type Decoded = { ok: true; value: Payload } | { ok: false; reason: string };

/**
 * What binary payload bytes say, if they are exactly the binary form of it; never throws. The
 * result still goes through the shape checks (messages.ts checkPayload) like a JSON payload.
 */
export function decodePayload(bytes: Uint8Array): Decoded {
  let value: Payload;
  try {
    const i = new Reader(bytes);
    const v = i.varint();
    if (!BINARY_VERSIONS.includes(v)) return { ok: false, reason: 'unknown-protocol-version' };
    const type = TYPES[i.u8()];
    if (type === undefined) return { ok: false, reason: 'unknown-type' };
    const head = { v, type, game: r.id(i), from: r.key(i), seq: i.varint(), time: i.varint() };
    value = { ...head, ...readBody(i, type, v) } as unknown as Payload;
    i.end();
  } catch (e) {
    return { ok: false, reason: e instanceof DecodeError ? `binary-${e.message}` : 'binary-unreadable' };
  }
  // One byte form: the bytes must be what the value encodes to.
  try {
    const again = encodePayload(value);
    if (again.length !== bytes.length || again.some((b, k) => b !== bytes[k])) return { ok: false, reason: 'not-canonical' };
  } catch {
    return { ok: false, reason: 'not-canonical' };
  }
  return { ok: true, value };
}

/**
 * Version, type and game of a binary payload of any version from 3 on (the frame every later
 * version keeps), or null. Used only to tell "made with another Pacto" from garbage.
 */
export function peekBinary(bytes: Uint8Array): { version: number; type: string; game: string } | null {
  try {
    const i = new Reader(bytes);
    const version = i.varint();
    if (version < BINARY_VERSION) return null;
    const t = i.u8();
    return { version, type: t === 0 ? 'create' : `type-${t}`, game: r.id(i) };
  } catch {
    return null;
  }
}

/** Whether payload bytes are binary (protocol 3 and later): JSON payloads always begin with '{'. */
export function isBinaryPayload(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes[0] !== 0x7b;
}

// ---------------------------------------------------------------------------------------------
// The compact wire form (version 6, and 7 alike; src/protocol/README.md "The compact wire form").
//
// The signed bytes (and the id) of a version 6 (or 7) payload are exactly what encodePayload writes:
// version, type, game id, author key, then the rest. That is also its full wire form, read with no
// context. After the START an entry may instead be carried compact: version, type + 128, the
// author's place in a START's key list (messages.ts startKeys, 1 for the first) as a varint, then
// the rest; the game id and the key are left out. The reader puts them back (expandWire) and checks
// the signature over what it rebuilt, so a wrong game or a wrong key only fails the signature.

/** What a reader knows that the compact form leaves out: the game, and the key lists of the STARTs it holds. */
export interface WireContext {
  readonly game: string;
  /** startKeys of every START of the game's creator the reader holds (usually one; a forked lobby, two). */
  readonly keyLists: readonly (readonly string[])[];
}

/** The flag on a compact entry's type byte. */
const BY_PLACE = 128;
/** Types never carried compact: the lobby's own entries, read before any START exists. */
const KEY_ONLY: readonly MessageType[] = ['create', 'join', 'start'];

/**
 * The wire form of version 6 or 7 signed payload bytes: compact (the author by its place in `keys`,
 * a START's key list) when the author is there and the type may be, else the bytes as signed.
 * Throws (CodecError) for bytes that are not a version 6 or 7 payload: a caller's bug.
 */
export function compactPayload(signed: Uint8Array, keys: readonly string[] | null): Uint8Array {
  let version: number;
  let type: number;
  let from: string;
  let rest: number;
  try {
    const i = new Reader(signed);
    version = i.varint();
    type = i.u8();
    i.raw(16);
    from = r.key(i);
    rest = i.pos;
  } catch {
    throw new CodecError('not a payload');
  }
  if (!compactVersion(version) || TYPES[type] === undefined) throw new CodecError(`not a payload of version ${COMPACT_VERSION} or later`);
  const at = keys === null || KEY_ONLY.includes(TYPES[type]!) ? -1 : keys.indexOf(from);
  if (at < 0) return signed.slice();
  const o = new Writer();
  o.varint(version);
  o.u8(type + BY_PLACE);
  o.varint(at + 1);
  o.raw(signed.subarray(rest));
  return o.done();
}

export type Expanded =
  /** The signed bytes the wire bytes stand for: one, or one per distinct key the place names across the START lists. */
  { readonly ok: true; readonly signed: readonly Uint8Array[] } | { readonly ok: false; readonly reason: string };

/** Whether wire bytes name their author by place (version 6 or 7 compact): they need the game's STARTs to be read. */
export function namesAuthorByPlace(wire: Uint8Array): boolean {
  try {
    const i = new Reader(wire);
    return compactVersion(i.varint()) && i.u8() >= BY_PLACE;
  } catch {
    return false;
  }
}

/**
 * The signed bytes of wire bytes: the bytes themselves unless they are compact, else rebuilt with
 * the game id and the key at the place named, once per distinct key the reader's START lists have
 * there. Never throws. Bytes no honest phone sends give a reason: `binary-truncated`,
 * `not-canonical` (a padded version or place, place 0, a lobby entry carried compact), `unknown-type`;
 * `author-place-unknown` when no START list the reader holds has that place (or it holds none, or
 * no context): a START still to come may have it, so such bytes are kept waiting, never forgotten.
 */
export function expandWire(wire: Uint8Array, ctx: WireContext | undefined): Expanded {
  try {
    const i = new Reader(wire);
    const version = i.varint();
    if (!compactVersion(version)) return { ok: true, signed: [wire] };
    const flagged = i.u8();
    if (flagged < BY_PLACE) return { ok: true, signed: [wire] };
    // The version as written (one byte): a padded one would make another byte string of the message.
    if (i.pos !== 2) return { ok: false, reason: 'not-canonical' };
    const type = TYPES[flagged - BY_PLACE];
    if (type === undefined) return { ok: false, reason: 'unknown-type' };
    if (KEY_ONLY.includes(type)) return { ok: false, reason: 'not-canonical' };
    const head = i.pos;
    const place = i.varint();
    const again = new Writer();
    again.varint(place);
    if (place === 0 || again.done().length !== i.pos - head) return { ok: false, reason: 'not-canonical' };
    const game = ctx === undefined ? null : fromHex(ctx.game);
    if (ctx === undefined || game === null || game.length !== 16) return { ok: false, reason: 'author-place-unknown' };
    // In the order of the lists (the START the reader plays under first): only the cost depends on it.
    const named = [...new Set(ctx.keyLists.map((l) => l[place - 1]).filter((k): k is string => k !== undefined))];
    const keys = named.map((k) => fromHex(k)).filter((k): k is Uint8Array => k !== null && k.length === 32);
    if (keys.length === 0) return { ok: false, reason: 'author-place-unknown' };
    const rest = wire.subarray(i.pos);
    return {
      ok: true,
      signed: keys.map((key) => {
        const o = new Writer();
        o.varint(version);
        o.u8(flagged - BY_PLACE);
        o.raw(game);
        o.raw(key);
        o.raw(rest);
        return o.done();
      }),
    };
  } catch (e) {
    return { ok: false, reason: e instanceof DecodeError ? `binary-${e.message}` : 'binary-unreadable' };
  }
}
