// A tab posts its doc updates to the BroadcastChannel whether or not another tab was heard (a tab
// kept quiet until it heard another could miss the other's announcement and never sync), merged
// into one post once they stop coming (src/net/forwarding.ts TAB_POST_QUIET_MS), and never feeds
// its own posts back through its gate. tests/e2e/net-sync.test.ts checks two real tabs syncing over
// the channel alone.
import { describe, expect, it } from 'vitest';
import type { WebrtcProvider } from 'y-webrtc';
import * as Y from 'yjs';
import { limitForwarding, TAB_POST_MAX_MS, TAB_POST_QUIET_MS } from '../../src/net/forwarding';
import { LOG_KEY } from '../../src/net/log-doc';
import { structuralGate, type Report } from '../../src/net/gate';
import { gateBroadcastChannel } from '../../src/net/y-webrtc-hooks';
import { SYNC_UPDATE, syncMessage } from '../../src/net/yjs-update';

/** The parts of y-webrtc's Room these hooks touch; `posted` records whether each doc update would go to the channel. */
function fakeRoom() {
  const doc = new Y.Doc();
  const posted: boolean[] = [];
  /** Each update y-webrtc's handler was given, and whether it would go to the channel then. */
  const calls: { update: Uint8Array; channel: boolean }[] = [];
  const room = {
    name: 'tabs-room',
    key: null,
    doc,
    webrtcConns: new Map(),
    // Off while the hooks are installed, so they do not (re)subscribe lib0's real channel here.
    bcconnected: false,
    _docUpdateHandler: (update: Uint8Array, origin: unknown): void => {
      void origin;
      posted.push(room.bcconnected);
      calls.push({ update, channel: room.bcconnected });
    },
    _bcSubscriber: (): void => undefined,
  };
  const reports: Report[] = [];
  const gate = structuralGate(doc, (r) => reports.push(r));
  const provider = { room } as unknown as WebrtcProvider;
  gateBroadcastChannel(provider, gate);
  limitForwarding(provider);
  room.bcconnected = true;
  doc.on('update', (u: Uint8Array, origin: unknown) => room._docUpdateHandler(u, origin));
  return {
    room,
    doc,
    posted,
    calls,
    reports,
    hear: (data: Uint8Array, origin: unknown) => (room._bcSubscriber as (d: ArrayBuffer, o: unknown) => void)(data as unknown as ArrayBuffer, origin),
  };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const log = (doc: Y.Doc): Y.Array<Uint8Array> => doc.getArray<Uint8Array>(LOG_KEY);
const texts = (doc: Y.Doc): string[] =>
  log(doc)
    .toArray()
    .map((b) => new TextDecoder().decode(b));

/** An update from another doc, framed as y-webrtc sends it. */
function updateFrom(text: string): Uint8Array {
  const other = new Y.Doc();
  log(other).push([bytes(text)]);
  return syncMessage(SYNC_UPDATE, Y.encodeStateAsUpdate(other));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The entries the channel was given, read back through a fresh doc. */
function channelTexts(calls: readonly { update: Uint8Array; channel: boolean }[]): string[] {
  const d = new Y.Doc();
  for (const c of calls) if (c.channel) Y.applyUpdate(d, c.update);
  return texts(d);
}

describe('BroadcastChannel between tabs of one browser', () => {
  it("a tab posts every update, never re-reads its own posts, and applies the other tab's updates through the gate", async () => {
    const t = fakeRoom();
    log(t.doc).push([bytes('mine')]);
    // Peers at once; the channel half waits for the batch.
    expect(t.posted).toEqual([false]);
    // Our own post handed back by lib0 (origin null): ignored, and it is not another tab.
    t.hear(updateFrom('echo'), null);
    await sleep(10);
    expect(texts(t.doc)).toEqual(['mine']);
    log(t.doc).push([bytes('still alone')]);
    await expect.poll(() => channelTexts(t.calls), { timeout: 10_000, interval: 20 }).toEqual(['mine', 'still alone']);
    // Another tab's message comes from the channel's message event: applied through the gate.
    t.hear(updateFrom('from the other tab'), 'broadcastchannel');
    await sleep(10);
    expect(texts(t.doc)).toContain('from the other tab');
    log(t.doc).push([bytes('now shared')]);
    await expect.poll(() => channelTexts(t.calls), { timeout: 10_000, interval: 20 }).toContain('now shared');
    expect(t.room.bcconnected).toBe(true);
    expect(t.reports).toEqual([]);
  });

  it('merges a burst into one post once updates stop, each still going to peers at once', async () => {
    const t = fakeRoom();
    for (let i = 0; i < 5; i++) log(t.doc).push([bytes(`u${i}`)]);
    expect(t.calls.map((c) => c.channel)).toEqual([false, false, false, false, false]);
    await sleep(TAB_POST_QUIET_MS / 2);
    expect(t.calls.filter((c) => c.channel)).toHaveLength(0);
    await expect.poll(() => t.calls.filter((c) => c.channel).length, { timeout: 10_000, interval: 20 }).toBe(1);
    expect(channelTexts(t.calls)).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
  });

  it('a stream of updates with no pause still reaches the channel within the bound, and closing the game posts what waits', async () => {
    const t = fakeRoom();
    const start = Date.now();
    let i = 0;
    while (t.calls.every((c) => !c.channel) && Date.now() - start < TAB_POST_MAX_MS + 3_000) {
      log(t.doc).push([bytes(`s${i++}`)]);
      await sleep(TAB_POST_QUIET_MS / 5);
    }
    expect(t.calls.some((c) => c.channel)).toBe(true);
    log(t.doc).push([bytes('last')]);
    t.doc.destroy();
    expect(channelTexts(t.calls)).toContain('last');
  });
});
