// Anti-entropy between honest phones over real WebRTC (@roamhq/wrtc), each phone its own Node
// process with the app's gate (REPLICA=1: a GameReplica behind y-webrtc), through our signaling
// server on 127.0.0.1. Issue 29: in a lot game every connected pair refused each other's
// anti-entropy (`bad-anti-entropy-message`) on every round, so the mechanism that heals forks
// never ran for the lot ballot.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeIds } from '../../src/net';
import type { Report } from '../../src/net';
import { lotGame, type CarriedEntry } from './helpers/lot-game';
import { startPeer, startSignaling, type PeerProcess } from './helpers/processes';
import type { State } from './helpers/peer-process';

let signaling: Awaited<ReturnType<typeof startSignaling>>;
let url: string;
const peers: PeerProcess[] = [];
/** The sync handshake and an anti-entropy digest on every link this often (the app: 20 s). */
const RESYNC_MS = 1500;

beforeEach(async () => {
  signaling = await startSignaling();
  url = signaling.url;
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  await signaling.close();
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const states = (ps: readonly PeerProcess[]): Promise<State[]> => Promise.all(ps.map((p) => p.state()));

/** Consecutive entries of one author: what its phone publishes in one go. */
function turns(entries: readonly CarriedEntry[]): CarriedEntry[][] {
  const out: CarriedEntry[][] = [];
  for (const e of entries) {
    const last = out.at(-1);
    if (last !== undefined && last[0]!.author === e.author) last.push(e);
    else out.push([e]);
  }
  return out;
}

describe('anti-entropy over WebRTC', () => {
  it('three honest phones playing a lot game refuse none of each other’s messages over several rounds; a bad one is still refused', async () => {
    const game = lotGame(29);
    expect(game.entries.some((e) => e.phase === 'lot')).toBe(true);
    const phones: PeerProcess[] = [];
    for (const key of game.keys) {
      const p = await startPeer({
        SIGNALING: url,
        GAME_ID: game.gameId,
        PASSWORD: 'anti-entropy-password-01',
        RESYNC_MS: String(RESYNC_MS),
        REPLICA: '1',
        SELF: key,
      });
      peers.push(p);
      phones.push(p);
    }
    await expect.poll(async () => (await states(phones)).map((s) => s.webrtcPeers), { timeout: 90_000, interval: 300 }).toEqual([2, 2, 2]);

    // The game, each phone signing its own entries in turn once it has read what came before.
    let published = 0;
    for (const turn of turns(game.entries)) {
      const r = await phones[turn[0]!.author]!.request<{ type: 'published'; error?: string }>(
        { type: 'publish', entries: turn.map((e) => hex(e.bytes)) },
        'published',
      );
      expect(r.error).toBeUndefined();
      published += turn.length;
      await expect.poll(async () => (await states(phones)).map((s) => s.count), { timeout: 30_000, interval: 100 }).toEqual([published, published, published]);
    }
    // Several rounds with everything already held: each link's digests, compared on both sides.
    await new Promise((r) => setTimeout(r, 5 * RESYNC_MS));
    const after = await states(phones);
    for (const s of after) expect(s.ids).toEqual(after[0]!.ids);
    const refusals = (reports: readonly Report[]) => reports.filter((r) => r.kind === 'message-refused');
    // Counted apart first, so a failure shows how many and why; then nothing at all was reported.
    expect(after.map((s) => `${refusals(s.reports).length} refused: ${[...new Set(refusals(s.reports).map((r) => r.reason))].join()}`)).toEqual([
      '0 refused: ',
      '0 refused: ',
      '0 refused: ',
    ]);
    expect(after.map((s) => s.reports)).toEqual([[], [], []]);

    // A peer's anti-entropy naming a bucket no honest phone makes is refused, and changes nothing.
    const bad = encodeIds({ bucket: 'phase:lots', lo: '0'.repeat(32), hi: 'f'.repeat(32), ids: [], reply: false });
    const sent = await phones[2]!.request<{ type: 'rawSent'; sent: number }>({ type: 'raw', hex: hex(bad) }, 'rawSent');
    expect(sent.sent).toBe(2);
    await expect
      .poll(async () => (await states(phones.slice(0, 2))).map((s) => refusals(s.reports).map((r) => r.reason)), { timeout: 30_000, interval: 200 })
      .toEqual([['bad-anti-entropy-message'], ['bad-anti-entropy-message']]);
    for (const s of await states(phones)) expect(s.ids).toEqual(after[0]!.ids);
  }, 300_000);
});
