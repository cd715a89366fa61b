// The table provider over in-memory links: the sync handshake, the host relaying between guests,
// large catch-ups in small frames, healing after loss, and living beside another provider.
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { appendMessage, readLog } from '../../src/net';
import { TABLE_FRAME_BYTES, TableProvider, FrameJoiner, toFrames } from '../../src/net/table';
import { createPipe, type PipeEnd } from './table-pipe';

const enc = new TextEncoder();
const dec = new TextDecoder();
const providers: TableProvider[] = [];
afterEach(() => providers.splice(0).forEach((p) => p.destroy()));

function phone(resyncMs = 0): TableProvider {
  const p = new TableProvider(new Y.Doc(), { resyncMs });
  providers.push(p);
  return p;
}

/** Links a guest to the host; returns [host end, guest end]. */
function pair(host: TableProvider, guest: TableProvider): [PipeEnd, PipeEnd] {
  const [h, g] = createPipe();
  host.connect(h);
  guest.connect(g);
  return [h, g];
}

function say(p: TableProvider, text: string): void {
  appendMessage(p.doc, enc.encode(text));
}

function heard(p: TableProvider): string[] {
  return readLog(p.doc)
    .map((m) => dec.decode(m))
    .sort();
}

describe('frames', () => {
  it('split a message into frames no larger than the budget and join them back', () => {
    for (const size of [0, 1, TABLE_FRAME_BYTES - 1, TABLE_FRAME_BYTES, TABLE_FRAME_BYTES + 1, 5 * TABLE_FRAME_BYTES + 7]) {
      const message = Uint8Array.from({ length: size }, (_, i) => (i * 31) & 0xff);
      const frames = toFrames(message);
      expect(frames.length).toBe(Math.max(1, Math.ceil(size / TABLE_FRAME_BYTES)));
      expect(Math.max(...frames.map((f) => f.length))).toBeLessThanOrEqual(TABLE_FRAME_BYTES + 1);
      const joiner = new FrameJoiner();
      const out = frames.map((f) => joiner.push(f));
      expect(out.slice(0, -1).every((x) => x === undefined)).toBe(true);
      expect(Buffer.compare(out[out.length - 1]!, message)).toBe(0);
    }
  });

  it('refuse a malformed frame and a message over the limit', () => {
    expect(() => new FrameJoiner().push(Uint8Array.of(7, 1, 2))).toThrow(/malformed/);
    const joiner = new FrameJoiner(10);
    expect(() => toFrames(new Uint8Array(30), 8).forEach((f) => joiner.push(f))).toThrow(/too large/);
  });
});

describe('table provider', () => {
  it('syncs what each side had before linking, then every new message', async () => {
    const host = phone();
    const guest = phone();
    say(host, 'host: before');
    say(guest, 'guest: before');
    pair(host, guest);
    await expect.poll(() => heard(guest)).toEqual(['guest: before', 'host: before']);
    await expect.poll(() => heard(host)).toEqual(['guest: before', 'host: before']);
    expect(host.status).toEqual({ peers: 1, synced: 1 });
    say(guest, 'guest: after');
    await expect.poll(() => heard(host)).toContain('guest: after');
  });

  it('relays between guests through the host, who are never linked to each other', async () => {
    const host = phone();
    const guests = [phone(), phone(), phone()];
    guests.forEach((g) => pair(host, g));
    // A phase: every phone appends its messages.
    say(host, 'host');
    guests.forEach((g, i) => say(g, `guest ${i}`));
    const everything = ['guest 0', 'guest 1', 'guest 2', 'host'];
    for (const p of [host, ...guests]) await expect.poll(() => heard(p)).toEqual(everything);
    expect(host.status.peers).toBe(3);
    // The same log in the same order everywhere: Yjs order, not arrival order.
    const order = readLog(host.doc).map((m) => dec.decode(m));
    for (const g of guests) expect(readLog(g.doc).map((m) => dec.decode(m))).toEqual(order);
  });

  it('sends a large catch-up in frames of at most the frame budget', async () => {
    const host = phone();
    // About 600 KiB of log, more than Chrome carries in one data-channel message.
    for (let i = 0; i < 300; i++) say(host, `${i}:`.padEnd(2048, String.fromCharCode(97 + (i % 26))));
    const guest = phone();
    const [h] = pair(host, guest);
    await expect.poll(() => readLog(guest.doc).length, { timeout: 10_000 }).toBe(300);
    expect(heard(guest)).toEqual(heard(host));
    expect(h.sent.reduce((a, b) => a + b, 0)).toBeGreaterThan(600_000);
    expect(Math.max(...h.sent)).toBeLessThanOrEqual(TABLE_FRAME_BYTES + 1);
  });

  it('catches up a guest that joins late and one that comes back after being away', async () => {
    const host = phone();
    const a = phone();
    const b = phone();
    const [, aEnd] = pair(host, a);
    pair(host, b);
    say(a, 'spring: a');
    await expect.poll(() => heard(b)).toEqual(['spring: a']);

    aEnd.close();
    await expect.poll(() => host.status.peers).toBe(1);
    say(a, 'a while away'); // made offline, must reach the others later
    say(b, 'fall: b');
    say(host, 'fall: host');

    const late = phone();
    pair(host, late);
    await expect.poll(() => heard(late)).toEqual(['fall: b', 'fall: host', 'spring: a']);

    pair(host, a);
    const all = ['a while away', 'fall: b', 'fall: host', 'spring: a'];
    for (const p of [host, a, b, late]) await expect.poll(() => heard(p)).toEqual(all);
  });

  it('heals a lost update at the next timed handshake', async () => {
    const host = phone(100);
    const guest = phone(100);
    const [, g] = pair(host, guest);
    await expect.poll(() => host.status.synced).toBe(1);
    g.dropping = true;
    say(guest, 'lost in the air');
    await new Promise((r) => setTimeout(r, 50));
    g.dropping = false;
    expect(heard(host)).toEqual([]);
    await expect.poll(() => heard(host), { timeout: 5_000 }).toEqual(['lost in the air']);
  });

  it('reports garbage from a link without throwing or changing the log, and keeps the link', async () => {
    const host = phone();
    const guest = phone();
    const errors: unknown[] = [];
    host.onError((e) => errors.push(e));
    const [h, g] = createPipe();
    host.connect(h);
    g.send(Uint8Array.of(9, 9, 9)); // not a frame
    g.send(Uint8Array.of(0, 5, 1, 2)); // a frame holding an unknown message type
    g.send(Uint8Array.of(0, 0, 2, 200)); // a sync update that is not a Yjs update
    await expect.poll(() => errors.length).toBe(3);
    expect(readLog(host.doc)).toEqual([]);
    guest.connect(g);
    say(guest, 'still works');
    await expect.poll(() => heard(host)).toEqual(['still works']);
  });

  it('carries updates to and from another provider on the same doc', async () => {
    // Phone W is only on "y-webrtc" (stood in for by a bridge with its own origin) with guest G;
    // guest H is only at the table. Whatever reaches one doc reaches the others.
    const host = phone();
    const g = phone();
    const h = phone();
    pair(host, g);
    pair(host, h);
    const w = new Y.Doc();
    const webrtc = { name: 'another provider' };
    const bridge = (from: Y.Doc, to: Y.Doc) =>
      from.on('update', (u: Uint8Array, origin: unknown) => origin !== webrtc && setTimeout(() => Y.applyUpdate(to, u, webrtc), 0));
    bridge(w, g.doc);
    bridge(g.doc, w);

    appendMessage(w, enc.encode('from webrtc'));
    say(h, 'from the table');
    const both = ['from the table', 'from webrtc'];
    await expect.poll(() => heard(h)).toEqual(both);
    await expect
      .poll(() =>
        readLog(w)
          .map((m) => dec.decode(m))
          .sort(),
      )
      .toEqual(both);
    await expect.poll(() => heard(host)).toEqual(both);
  });

  it('closes its links and stops forwarding when destroyed', async () => {
    const host = phone();
    const guest = phone();
    const [h] = pair(host, guest);
    await expect.poll(() => guest.status.synced).toBe(1);
    host.destroy();
    expect(h.open).toBe(false);
    say(host, 'after the end');
    await expect.poll(() => guest.status.peers).toBe(0);
    expect(heard(guest)).toEqual([]);
  });
});
