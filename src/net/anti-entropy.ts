// Anti-entropy that does not trust Yjs ids. Yjs syncs by (client, clock): two phones whose state
// vectors are equal send each other nothing, even when they hold different bytes under one id (a
// fork by Yjs id) or one of them refused an update. So phones also compare the entries they hold,
// by content id, on the same link (a message type y-webrtc does not use, handled before y-webrtc):
//
//   DIGEST   per bucket ('lobby', 'chat', 'phase:<key>', 'phase:lot'): how many ids and a hash of
//            them, sorted; paged by bucket name, each page saying which range of names it covers.
//   IDS      one bucket's ids within an id range, sorted; sent for every bucket whose digest
//            differs. `reply` = 0 asks the other side to answer with its own IDS for the range.
//   ENTRIES  entry bytes: those of ours the other side's IDS lacks.
//
// Entries received are admitted like any others (never trusted for arriving this way); the
// receiver's carrier then puts what it lacked into its own doc under a fresh Yjs id, so it spreads.
// A peer that claims to lack everything only gets bytes sent to it, at most once a minute per
// entry: no honest doc grows because of what a peer says. Every field is checked; nothing throws.
import { compareText, fromHex, LOT_PHASE, toHex } from '../protocol';
import type { PeerRef, Report } from './gate';
import { FRAME_LIMIT_BYTES } from './gate';

/** The message type on a y-webrtc data channel (y-webrtc uses 0-4) and on a table link. */
export const MESSAGE_ANTI_ENTROPY = 100;
const DIGEST = 1;
const IDS = 2;
const ENTRIES = 3;

const ID_BYTES = 16;
const HASH_BYTES = 8;
const MAX_BUCKET_NAME = 40;
/** Buckets per DIGEST page and ids per IDS page keep every message well under one frame. */
export const DIGEST_PAGE = 1000;
export const IDS_PAGE = 2048;
const ENTRIES_BUDGET = FRAME_LIMIT_BYTES - 1024;
/** An entry is sent to one peer at most once per this long. */
export const RESEND_MS = 60_000;
/** Digests are sent at most this often per link. */
const DIGEST_EVERY_MS = 1_000;
/** Incoming anti-entropy messages per link per second before the rest are dropped. */
const INCOMING_PER_SECOND = 200;
const SENT_REMEMBERED = 50_000;
/**
 * The buckets the admission makes (`digestBucket`): 'lobby', 'chat', and 'phase:' with the phase of
 * an entry that has one, which is a phase key or the lot ballot's (LOCK, REVEAL, TIMEOUT and CLOCK
 * of a lot game). A name outside this is refused: every bucket an honest phone compares must be here.
 */
const BUCKET_RE = new RegExp(`^(lobby|chat|phase:(${LOT_PHASE}|\\d{1,5}-(spring|fall|winter)-(movement|retreat|adjustment)))$`);

/** What anti-entropy needs from a replica. */
export interface EntrySource {
  digest(): ReadonlyMap<string, { readonly count: number; readonly hash: string }>;
  idsIn(bucket: string): readonly string[];
  bytesOf(id: string): Uint8Array | undefined;
  receiveEntries(entries: readonly Uint8Array[], peer: PeerRef): void;
  report(r: Report): void;
}

// ---- Encoding -----------------------------------------------------------------------------------

class Writer {
  private readonly parts: number[] = [];
  private readonly chunks: Uint8Array[] = [];
  varuint(n: number): this {
    while (n >= 0x80) {
      this.parts.push((n % 128) | 0x80);
      n = Math.floor(n / 128);
    }
    this.parts.push(n);
    return this;
  }
  raw(bytes: Uint8Array): this {
    this.flush();
    this.chunks.push(bytes);
    return this;
  }
  string(s: string): this {
    const b = new TextEncoder().encode(s);
    return this.varuint(b.length).raw(b);
  }
  varBytes(b: Uint8Array): this {
    return this.varuint(b.length).raw(b);
  }
  private flush(): void {
    if (this.parts.length > 0) this.chunks.push(Uint8Array.from(this.parts.splice(0)));
  }
  bytes(): Uint8Array {
    this.flush();
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

class Reader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  get done(): boolean {
    return this.pos === this.b.length;
  }
  varuint(): number {
    let value = 0;
    let mult = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.b.length) throw new Error('truncated');
      const x = this.b[this.pos++]!;
      value += (x & 0x7f) * mult;
      if (x < 0x80) {
        if (i > 0 && x === 0) throw new Error('non-minimal varuint');
        if (!Number.isSafeInteger(value)) throw new Error('varuint too large');
        return value;
      }
      mult *= 128;
    }
    throw new Error('varuint too long');
  }
  raw(n: number): Uint8Array {
    if (n > this.b.length - this.pos) throw new Error('truncated');
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  string(max: number): string {
    const n = this.varuint();
    if (n > max) throw new Error('string too long');
    return new TextDecoder('utf-8', { fatal: true }).decode(this.raw(n));
  }
  varBytes(max: number): Uint8Array {
    const n = this.varuint();
    if (n > max) throw new Error('bytes too long');
    return this.raw(n);
  }
}

export interface DigestPage {
  /** Bucket names from `from` to `to` inclusive ('' / '~' for the ends). */
  readonly from: string;
  readonly to: string;
  readonly buckets: readonly { readonly name: string; readonly count: number; readonly hash: string }[];
}

export interface IdsPage {
  readonly bucket: string;
  /** Ids from `lo` to `hi` inclusive. */
  readonly lo: string;
  readonly hi: string;
  readonly ids: readonly string[];
  /** 0: answer with your own ids for this range; 1: an answer. */
  readonly reply: boolean;
}

export type AntiEntropyMessage = { kind: 'digest'; page: DigestPage } | { kind: 'ids'; page: IdsPage } | { kind: 'entries'; entries: Uint8Array[] };

const LOWEST_ID = '0'.repeat(32);
const HIGHEST_ID = 'f'.repeat(32);
const LAST_NAME = '~';

export function encodeDigest(page: DigestPage): Uint8Array {
  const w = new Writer().varuint(MESSAGE_ANTI_ENTROPY).varuint(DIGEST).string(page.from).string(page.to).varuint(page.buckets.length);
  for (const b of page.buckets) w.string(b.name).varuint(b.count).raw(fromHex(b.hash)!);
  return w.bytes();
}

export function encodeIds(page: IdsPage): Uint8Array {
  const w = new Writer()
    .varuint(MESSAGE_ANTI_ENTROPY)
    .varuint(IDS)
    .varuint(page.reply ? 1 : 0)
    .string(page.bucket)
    .raw(fromHex(page.lo)!)
    .raw(fromHex(page.hi)!)
    .varuint(page.ids.length);
  for (const id of page.ids) w.raw(fromHex(id)!);
  return w.bytes();
}

export function encodeEntries(entries: readonly Uint8Array[]): Uint8Array {
  const w = new Writer().varuint(MESSAGE_ANTI_ENTROPY).varuint(ENTRIES).varuint(entries.length);
  for (const e of entries) w.varBytes(e);
  return w.bytes();
}

const validName = (name: string, edge: boolean): boolean => BUCKET_RE.test(name) || (edge && (name === '' || name === LAST_NAME));

/** Reads one anti-entropy message, checking every field; null if anything is off. */
export function decodeAntiEntropy(message: Uint8Array): AntiEntropyMessage | null {
  try {
    if (message.length > FRAME_LIMIT_BYTES) return null;
    const r = new Reader(message);
    if (r.varuint() !== MESSAGE_ANTI_ENTROPY) return null;
    const kind = r.varuint();
    if (kind === DIGEST) {
      const from = r.string(MAX_BUCKET_NAME);
      const to = r.string(MAX_BUCKET_NAME);
      if (!validName(from, true) || !validName(to, true) || compareText(from, to) > 0) return null;
      const n = r.varuint();
      if (n > DIGEST_PAGE) return null;
      const buckets: DigestPage['buckets'][number][] = [];
      for (let i = 0; i < n; i++) {
        const name = r.string(MAX_BUCKET_NAME);
        const count = r.varuint();
        const hash = toHex(r.raw(HASH_BYTES));
        if (!validName(name, false) || count === 0 || count > 1_000_000) return null;
        if (compareText(name, from) < 0 || compareText(name, to) > 0) return null;
        if (i > 0 && compareText(buckets[i - 1]!.name, name) >= 0) return null;
        buckets.push({ name, count, hash });
      }
      return r.done ? { kind: 'digest', page: { from, to, buckets } } : null;
    }
    if (kind === IDS) {
      const reply = r.varuint();
      if (reply > 1) return null;
      const bucket = r.string(MAX_BUCKET_NAME);
      if (!validName(bucket, false)) return null;
      const lo = toHex(r.raw(ID_BYTES));
      const hi = toHex(r.raw(ID_BYTES));
      if (compareText(lo, hi) > 0) return null;
      const n = r.varuint();
      if (n > IDS_PAGE) return null;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const id = toHex(r.raw(ID_BYTES));
        if (compareText(id, lo) < 0 || compareText(id, hi) > 0) return null;
        if (i > 0 && compareText(ids[i - 1]!, id) >= 0) return null;
        ids.push(id);
      }
      return r.done ? { kind: 'ids', page: { bucket, lo, hi, ids, reply: reply === 1 } } : null;
    }
    if (kind === ENTRIES) {
      const n = r.varuint();
      if (n > 1024) return null;
      const entries: Uint8Array[] = [];
      for (let i = 0; i < n; i++) entries.push(r.varBytes(FRAME_LIMIT_BYTES).slice());
      return r.done ? { kind: 'entries', entries } : null;
    }
    return null;
  } catch {
    return null;
  }
}

/** Digest pages covering every bucket name, in order. */
export function digestPages(digest: ReadonlyMap<string, { readonly count: number; readonly hash: string }>): DigestPage[] {
  const names = [...digest.keys()].filter((n) => validName(n, false)).sort(compareText);
  const pages: DigestPage[] = [];
  for (let i = 0; i === 0 || i < names.length; i += DIGEST_PAGE) {
    const chunk = names.slice(i, i + DIGEST_PAGE);
    const from = i === 0 ? '' : chunk[0]!;
    const to = i + DIGEST_PAGE >= names.length ? LAST_NAME : chunk[chunk.length - 1]!;
    pages.push({ from, to, buckets: chunk.map((name) => ({ name, ...digest.get(name)! })) });
  }
  return pages;
}

/** Ids pages of a bucket's sorted ids within [lo, hi], covering the whole range. */
export function idsPages(bucket: string, ids: readonly string[], reply: boolean, lo = LOWEST_ID, hi = HIGHEST_ID): IdsPage[] {
  const inRange = ids.filter((id) => compareText(id, lo) >= 0 && compareText(id, hi) <= 0);
  const pages: IdsPage[] = [];
  for (let i = 0; i === 0 || i < inRange.length; i += IDS_PAGE) {
    const chunk = inRange.slice(i, i + IDS_PAGE);
    const pageLo = i === 0 ? lo : chunk[0]!;
    const last = i + IDS_PAGE >= inRange.length;
    // A page ends just before the next page's first id, so pages never overlap.
    const pageHi = last ? hi : previousId(inRange[i + IDS_PAGE]!);
    pages.push({ bucket, lo: pageLo, hi: pageHi, ids: chunk, reply });
  }
  return pages;
}

function previousId(id: string): string {
  const b = fromHex(id)!;
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i]! > 0) {
      b[i]!--;
      break;
    }
    b[i] = 255;
  }
  return toHex(b);
}

// ---- One link ---------------------------------------------------------------------------------

export interface AntiEntropyOptions {
  readonly now?: () => number;
}

/** Anti-entropy with one peer over one link. */
export class AntiEntropyLink {
  private lastDigest = Number.NEGATIVE_INFINITY;
  private readonly sent = new Map<string, number>();
  private windowStart = 0;
  private windowCount = 0;
  private readonly now: () => number;

  constructor(
    private readonly source: EntrySource,
    readonly peer: PeerRef,
    private readonly send: (message: Uint8Array) => void,
    options: AntiEntropyOptions = {},
  ) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Sends our digest (at most once a second unless `force`). */
  sendDigest(force = false): void {
    const t = this.now();
    if (!force && t - this.lastDigest < DIGEST_EVERY_MS) return;
    this.lastDigest = t;
    for (const page of digestPages(this.source.digest())) this.out(encodeDigest(page));
  }

  /** Handles one anti-entropy message from the peer. Never throws. */
  receive(message: Uint8Array): void {
    try {
      const t = this.now();
      if (t - this.windowStart >= 1000) {
        this.windowStart = t;
        this.windowCount = 0;
      }
      if (++this.windowCount > INCOMING_PER_SECOND) {
        if (this.windowCount === INCOMING_PER_SECOND + 1) this.source.report({ kind: 'message-refused', peer: this.peer.name, reason: 'anti-entropy-flood' });
        return;
      }
      const m = decodeAntiEntropy(message);
      if (m === null) {
        this.source.report({ kind: 'message-refused', peer: this.peer.name, reason: 'bad-anti-entropy-message' });
        return;
      }
      if (m.kind === 'digest') this.onDigest(m.page);
      else if (m.kind === 'ids') this.onIds(m.page);
      else this.source.receiveEntries(m.entries, this.peer);
    } catch (e) {
      this.source.report({ kind: 'internal-error', peer: this.peer.name, reason: e instanceof Error ? e.message : String(e) });
    }
  }

  private onDigest(page: DigestPage): void {
    const ours = this.source.digest();
    const theirs = new Map(page.buckets.map((b) => [b.name, b]));
    const names = new Set<string>(page.buckets.map((b) => b.name));
    for (const name of ours.keys()) if (compareText(name, page.from) >= 0 && compareText(name, page.to) <= 0) names.add(name);
    for (const name of [...names].sort(compareText)) {
      const a = ours.get(name);
      const b = theirs.get(name);
      if (a !== undefined && b !== undefined && a.count === b.count && a.hash === b.hash) continue;
      for (const p of idsPages(name, this.source.idsIn(name), false)) this.out(encodeIds(p));
    }
  }

  private onIds(page: IdsPage): void {
    const ours = this.source.idsIn(page.bucket).filter((id) => compareText(id, page.lo) >= 0 && compareText(id, page.hi) <= 0);
    const theirs = new Set(page.ids);
    const lacking = ours.filter((id) => !theirs.has(id));
    this.sendEntries(lacking);
    if (!page.reply) {
      const mineSet = new Set(ours);
      // They may lack nothing of ours and still hold what we lack: answer with our ids for the range.
      if (lacking.length > 0 || page.ids.some((id) => !mineSet.has(id)) || ours.length !== page.ids.length) {
        for (const p of idsPages(page.bucket, ours, true, page.lo, page.hi)) this.out(encodeIds(p));
      }
    }
  }

  private sendEntries(ids: readonly string[]): void {
    const t = this.now();
    let batch: Uint8Array[] = [];
    let size = 0;
    for (const id of ids) {
      const last = this.sent.get(id);
      if (last !== undefined && t - last < RESEND_MS) continue;
      const bytes = this.source.bytesOf(id);
      if (bytes === undefined) continue;
      if (this.sent.size >= SENT_REMEMBERED) this.sent.delete(this.sent.keys().next().value!);
      this.sent.delete(id);
      this.sent.set(id, t);
      if (size + bytes.length + 8 > ENTRIES_BUDGET && batch.length > 0) {
        this.out(encodeEntries(batch));
        batch = [];
        size = 0;
      }
      batch.push(bytes);
      size += bytes.length + 8;
    }
    if (batch.length > 0) this.out(encodeEntries(batch));
  }

  private out(message: Uint8Array): void {
    if (message.length > FRAME_LIMIT_BYTES) return;
    try {
      this.send(message);
    } catch {
      // A link closing under us: its close ends this session.
    }
  }
}
