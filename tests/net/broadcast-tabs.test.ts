// A tab posts its doc updates to the BroadcastChannel whether or not another tab was heard (a tab
// kept quiet until it heard another could miss the other's announcement and never sync), and never
// feeds its own posts back through its gate. tests/e2e/net-sync.test.ts checks two
// real tabs syncing over the channel alone.
import { describe, expect, it } from 'vitest';
import type { WebrtcProvider } from 'y-webrtc';
import * as Y from 'yjs';
import { limitForwarding } from '../../src/net/forwarding';
import { LOG_KEY } from '../../src/net/log-doc';
import { structuralGate, type Report } from '../../src/net/gate';
import { gateBroadcastChannel } from '../../src/net/y-webrtc-hooks';
import { SYNC_UPDATE, syncMessage } from '../../src/net/yjs-update';

/** The parts of y-webrtc's Room these hooks touch; `posted` records whether each doc update would go to the channel. */
function fakeRoom() {
  const doc = new Y.Doc();
  const posted: boolean[] = [];
  const room = {
    name: 'tabs-room',
    key: null,
    doc,
    webrtcConns: new Map(),
    // Off while the hooks are installed, so they do not (re)subscribe lib0's real channel here.
    bcconnected: false,
    _docUpdateHandler: (update: Uint8Array, origin: unknown): void => {
      void [update, origin];
      posted.push(room.bcconnected);
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

describe('BroadcastChannel between tabs of one browser', () => {
  it("a tab posts every update, never re-reads its own posts, and applies the other tab's updates through the gate", async () => {
    const t = fakeRoom();
    log(t.doc).push([bytes('mine')]);
    expect(t.posted).toEqual([true]);
    // Our own post handed back by lib0 (origin null): ignored, and it is not another tab.
    t.hear(updateFrom('echo'), null);
    await new Promise((r) => setTimeout(r, 10));
    expect(texts(t.doc)).toEqual(['mine']);
    log(t.doc).push([bytes('still alone')]);
    expect(t.posted).toEqual([true, true]);
    // Another tab's message comes from the channel's message event: applied through the gate.
    t.hear(updateFrom('from the other tab'), 'broadcastchannel');
    await new Promise((r) => setTimeout(r, 10));
    expect(texts(t.doc)).toContain('from the other tab');
    log(t.doc).push([bytes('now shared')]);
    expect(t.posted.at(-1)).toBe(true);
    expect(t.room.bcconnected).toBe(true);
    expect(t.reports).toEqual([]);
  });
});
