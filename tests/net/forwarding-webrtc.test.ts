// y-webrtc sent every update to every peer, including updates just received from a peer (each
// entry crossed each link about twice). src/net/forwarding.ts forwards an update received from X
// only to peers not connected to X. Four phones in a full mesh, each its own Node process over
// real WebRTC (@roamhq/wrtc), through our signaling server on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPeer, startSignaling, type PeerProcess } from './helpers/processes';

let signaling: Awaited<ReturnType<typeof startSignaling>>;
let url: string;
const peers: PeerProcess[] = [];
// Resyncs answer with what a peer lacks, in-flight updates included: on a loaded machine a burst
// slower than one interval drew a copy per resync (2x the bytes in one fresh-clone run). Longer
// than any burst here, so the count is of forwarding alone.
const RESYNC_MS = 4000;

beforeEach(async () => {
  signaling = await startSignaling();
  url = signaling.url;
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  await signaling.close();
});

describe('forwarding over WebRTC', () => {
  it('in a full mesh each update crosses each link once: received bytes stay near the payload times the receivers', async () => {
    for (let i = 0; i < 4; i++)
      peers.push(await startPeer({ SIGNALING: url, GAME_ID: 'forwarding-game', PASSWORD: 'forwarding-password-01', RESYNC_MS: String(RESYNC_MS) }));
    await expect
      .poll(async () => (await Promise.all(peers.map((p) => p.state()))).every((s) => s.webrtcPeers === 3), { timeout: 90_000, interval: 300 })
      .toBe(true);
    // Each phone tells its peers whom it reaches on every link change and every resync.
    await new Promise((r) => setTimeout(r, 2 * RESYNC_MS));
    const before = await Promise.all(peers.map((p) => p.state()));
    const COUNT = 40;
    const SIZE = 1000;
    await peers[0]!.request({ type: 'append', count: COUNT, size: SIZE, tag: 'a' }, 'appended');
    await expect
      .poll(async () => (await Promise.all(peers.map((p) => p.state()))).every((s) => s.count === before[0]!.count + COUNT), { timeout: 90_000, interval: 300 })
      .toBe(true);
    // Let any forwarding finish, then count what every phone received.
    await new Promise((r) => setTimeout(r, RESYNC_MS));
    const after = await Promise.all(peers.map((p) => p.state()));
    const received = after.map((s, i) => s.received - before[i]!.received);
    const payload = COUNT * SIZE;
    // Three phones need the payload once each; y-webrtc's relaying sent each of them about three
    // copies more (one from each other receiver), and one to the author from each.
    const total = received.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(3 * payload);
    expect(total).toBeLessThan(1.5 * 3 * payload);
    expect(received[0]!).toBeLessThan(0.2 * payload); // nothing comes back to the author
  }, 180_000);
});
