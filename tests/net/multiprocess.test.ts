// Separate Node processes, one y-webrtc provider each over @roamhq/wrtc, find each other through
// our signaling server on 127.0.0.1 and reach the same log; a catch-up larger than a data channel
// carries in one message arrives whole, in pieces.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLockstep } from './helpers/lockstep-signaling';
import { againAfterNativeCrash } from './helpers/native-crash';
import { startPeer, startSignaling, type PeerProcess } from './helpers/processes';
import type { State } from './helpers/peer-process';

const CHROME_LIMIT = 256 * 1024;

let signaling: Awaited<ReturnType<typeof startSignaling>>;
let url: string;
const peers: PeerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  signaling = await startSignaling();
  url = signaling.url;
});

/** Stops this test's peers and what it started (also between the attempts of againAfterNativeCrash). */
async function reset(): Promise<void> {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  await Promise.all(cleanups.splice(0).map((f) => f()));
}

afterEach(async () => {
  await reset();
  await signaling.close();
});

async function peer(gameId: string, extra: Record<string, string> = {}): Promise<PeerProcess> {
  const p = await startPeer({ SIGNALING: url, GAME_ID: gameId, PASSWORD: 'processes-password-0001', RESYNC_MS: '2000', ...extra });
  peers.push(p);
  return p;
}

async function states(ps: readonly PeerProcess[]): Promise<State[]> {
  return Promise.all(ps.map((p) => p.state()));
}

/** Polls (bounded) until every peer has `count` messages and they all hold the same log. The bound is
 * generous because a loaded machine can take long to run WebRTC: the poll ends as soon as it holds. */
async function converged(ps: readonly PeerProcess[], count: number, timeout = 120_000): Promise<State[]> {
  let last: State[] = [];
  try {
    let dead = false;
    await Promise.race([
      expect
        .poll(
          async () => {
            if (dead) return true; // the race is lost already: stop asking
            last = await states(ps);
            return last.every((s) => s.count === count && s.digest === last[0]!.digest);
          },
          { timeout, interval: 250 },
        )
        .toBe(true),
      // A process that dies fails the test at once, saying how it ended.
      ...ps.map((p) =>
        p.died.catch((e: unknown) => {
          dead = true;
          throw e;
        }),
      ),
    ]);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('peer process')) throw e;
    // Say where it stuck: no link at all (webrtcPeers 0, no channel opened) is not a lost update.
    const seen = last.map(({ count: n, webrtcPeers, peerConnections, channelsOpened, channelsClosed, synced }) => ({
      count: n,
      webrtcPeers,
      peerConnections,
      channelsOpened,
      channelsClosed,
      synced,
    }));
    throw new Error(`not converged on ${count} entries: ${JSON.stringify(seen)}`, { cause: e });
  }
  return last;
}

describe('y-webrtc across Node processes', () => {
  it('three processes reach the same log, and a >256 KiB catch-up arrives in pieces', async () => {
    await againAfterNativeCrash(async (attempt) => {
      const a = await peer(`multiprocess-game-1-${attempt}`);
      await a.request({ type: 'append', count: 240, size: 1500, tag: 'a' }, 'appended');
      const [b, c] = await Promise.all([peer(`multiprocess-game-1-${attempt}`), peer(`multiprocess-game-1-${attempt}`)]);
      const caughtUp = await converged([a, b, c], 240);
      for (const s of caughtUp.slice(1)) {
        expect(s.received).toBeGreaterThan(CHROME_LIMIT); // the catch-up crossed a data channel...
        expect(s.largestReceived).toBeLessThanOrEqual(64 * 1024); // ...in pieces under the budget
      }
      // No process ever sent a frame over the budget (measured where it leaves, not where it lands).
      for (const s of caughtUp) expect(s.largestSent).toBeLessThanOrEqual(64 * 1024);
      await Promise.all([
        b.request({ type: 'append', count: 15, size: 200, tag: 'b' }, 'appended'),
        c.request({ type: 'append', count: 25, size: 200, tag: 'c' }, 'appended'),
      ]);
      await converged([a, b, c], 280);

      // B goes away; A and C go on; B comes back and catches up, and what it wrote offline spreads.
      await b.request({ type: 'disconnect' }, 'disconnected');
      await a.request({ type: 'append', count: 30, size: 300, tag: 'a2' }, 'appended');
      await c.request({ type: 'append', count: 10, size: 300, tag: 'c2' }, 'appended');
      await b.request({ type: 'append', count: 5, size: 300, tag: 'b-offline' }, 'appended');
      await converged([a, c], 320);
      expect((await b.state()).count).toBe(285);
      await b.request({ type: 'connect' }, 'connected');
      await converged([a, b, c], 325);
    }, reset);
  }, 400_000);

  it('re-runs the sync handshake on a timer, so updates lost on the way still arrive', async () => {
    await againAfterNativeCrash(async (attempt) => {
      const [a, b] = await Promise.all([
        peer(`multiprocess-game-3-${attempt}`, { RESYNC_MS: '1500' }),
        peer(`multiprocess-game-3-${attempt}`, { RESYNC_MS: '1500' }),
      ]);
      await a.request({ type: 'append', count: 3, size: 100, tag: 'a' }, 'appended');
      await converged([a, b], 3, 120_000);
      await b.request({ type: 'drop', on: true }, 'dropped');
      await b.request({ type: 'append', count: 10, size: 100, tag: 'lost' }, 'appended');
      // Checked while B still loses everything it sends: nothing can have healed it yet.
      expect((await a.state()).count).toBe(3); // the broadcast of B's update was lost
      const asked = (await b.state()).step1Received;
      const answered = (await a.state()).step2Received;
      await b.request({ type: 'drop', on: false }, 'dropped');
      // Waits for the timer's handshakes themselves (A asks with a step 1, B answers with a step 2),
      // counted as events, however long a loaded machine takes to run them; then for the log.
      await expect
        .poll(async () => (await b.state()).step1Received > asked && (await a.state()).step2Received > answered, { timeout: 120_000, interval: 250 })
        .toBe(true);
      await converged([a, b], 13, 120_000);
    }, reset);
  }, 300_000);

  it('two peers whose announces cross (both open the game at once) connect at the first attempt: only one of them starts the connection', async () => {
    await againAfterNativeCrash(async (attempt) => {
      // The proxy delivers both announces together, then the next publish of each together. y-webrtc
      // alone has each peer start a connection as initiator on the other's announce; the two offers
      // cross (glare), the loser cannot roll its offer back, and the pair stays half-open for ever.
      const lockstep = await startLockstep(url);
      cleanups.push(() => lockstep.close());
      const env = { SIGNALING: lockstep.url };
      const [a, b] = await Promise.all([peer(`multiprocess-game-4-${attempt}`, env), peer(`multiprocess-game-4-${attempt}`, env)]);
      await a.request({ type: 'append', count: 3, size: 100, tag: 'a' }, 'appended');
      const [sa, sb] = await converged([a, b], 3, 90_000);
      expect(lockstep.released()).toBeGreaterThanOrEqual(4); // both announces, then one publish of each, crossed
      // One RTCPeerConnection on each side: no offer met another, nothing was dropped and tried again.
      expect(sa!.peerConnections + sb!.peerConnections).toBe(2);
    }, reset);
  }, 200_000);

  it('without the split the same catch-up never arrives (the trap the split avoids)', async () => {
    await againAfterNativeCrash(async (attempt) => {
      const unsplit = { MAX_BYTES: String(64 * 1024 * 1024), RESYNC_MS: '1000' };
      const a = await peer(`multiprocess-game-2-${attempt}`, unsplit);
      await a.request({ type: 'append', count: 240, size: 1500, tag: 'a' }, 'appended');
      const b = await peer(`multiprocess-game-2-${attempt}`, unsplit);
      // A channel between them opens...
      await expect.poll(async () => (await b.state()).channelsOpened, { timeout: 120_000, interval: 250 }).toBeGreaterThan(0);
      // ...but the whole catch-up in one message, over the 256 KiB a data channel takes, closes it: B gets nothing.
      await expect.poll(async () => (await b.state()).channelsClosed, { timeout: 120_000, interval: 250 }).toBeGreaterThanOrEqual(1);
      const s = await b.state();
      expect(s.count).toBe(0);
      expect(s.largestReceived).toBeLessThan(CHROME_LIMIT);
    }, reset);
  }, 200_000);
});
