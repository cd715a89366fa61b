// Attacks over real WebRTC (@roamhq/wrtc), each phone its own Node process with the app's gate
// (REPLICA=1: a GameReplica behind y-webrtc), through our signaling server on 127.0.0.1.
import * as Y from 'yjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncMessage } from '../../src/net/yjs-update';
import { startedGame } from '../protocol/helpers';
import { startPeer, startSignaling, type PeerProcess } from './helpers/processes';
import type { State } from './helpers/peer-process';

let signaling: Awaited<ReturnType<typeof startSignaling>>;
let url: string;
const peers: PeerProcess[] = [];

beforeEach(async () => {
  signaling = await startSignaling();
  url = signaling.url;
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  await signaling.close();
});

async function phone(gameId: string): Promise<PeerProcess> {
  const p = await startPeer({ SIGNALING: url, GAME_ID: gameId, PASSWORD: 'attacks-password-0001', RESYNC_MS: '1500', REPLICA: '1' });
  peers.push(p);
  return p;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const state = (p: PeerProcess): Promise<State> => p.state();

/** Waits (on the peers' own state, bounded) until every phone holds `count` entries and the same ones. */
async function converged(ps: readonly PeerProcess[], count: number): Promise<State[]> {
  let last: State[] = [];
  await expect
    .poll(
      async () => {
        last = await Promise.all(ps.map(state));
        return last.every((s) => s.count === count && s.digest === last[0]!.digest);
      },
      { timeout: 90_000, interval: 300 },
    )
    .toBe(true);
  return last;
}

describe('attacks over WebRTC', () => {
  it('a frame over 64 KiB is dropped and reported, the link stays open and keeps carrying entries', async () => {
    const game = startedGame(51);
    const gameId = game.gameId;
    const [a, b, h] = [await phone(gameId), await phone(gameId), await phone(gameId)];
    await a.request({ type: 'publish', entries: game.log.slice(0, -1).map(hex) }, 'published');
    await converged([a, b, h], game.log.length - 1);
    await expect.poll(async () => (await Promise.all([a, b].map(state))).map((s) => s.webrtcPeers), { timeout: 90_000 }).toEqual([2, 2]);

    // A well-formed sync update of 200 KB: y-webrtc would apply it and pass it on. The transport
    // carries it (under 256 KiB); the gate drops it unread.
    const big = new Y.Doc();
    big.getArray<Uint8Array>('log').push([new Uint8Array(200_000).fill(3)]);
    const frame = syncMessage(2, Y.encodeStateAsUpdate(big));
    expect(frame.length).toBeGreaterThan(200_000);
    const sent = await h.request<{ type: 'rawSent'; sent: number }>({ type: 'raw', hex: hex(frame) }, 'rawSent');
    expect(sent.sent).toBeGreaterThanOrEqual(2);
    // Both honest phones receive it; wait for each one's report (the frame reaches them one at a time).
    await expect
      .poll(async () => (await Promise.all([a, b].map(state))).map((s) => s.reports.some((r) => r.kind === 'frame-too-large')), { timeout: 30_000 })
      .toEqual([true, true]);
    const [sa, sb] = await Promise.all([a, b].map(state));
    for (const s of [sa!, sb!]) {
      expect(s.largestReceived).toBeGreaterThan(200_000);
      expect(s.count).toBe(game.log.length - 1);
      expect(s.channelsClosed).toBe(0);
      expect(s.webrtcPeers).toBe(2);
    }
    // The links still carry entries, from the honest phones and from the sender of the frame.
    await b.request({ type: 'publish', entries: [hex(game.log.at(-1)!)] }, 'published');
    await converged([a, b, h], game.log.length);
    expect((await state(a)).channelsClosed).toBe(0);
    expect((await state(a)).largestReceived).toBeGreaterThan(64 * 1024);
    // The honest phones, and the sender outside its raw frame, never sent a frame over 64 KiB.
    for (const s of await Promise.all([a, b, h].map(state))) expect(s.largestSent).toBeLessThanOrEqual(64 * 1024);
  }, 240_000);
});
