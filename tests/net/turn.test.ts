// NAT traversal: the ICE servers an invite carries get two WebRTC peers (Node, @roamhq/wrtc)
// connected through Debian's coturn on 127.0.0.1 with iceTransportPolicy "relay", that is, only
// through TURN, as phones on two carrier NATs would be. With a wrong credential no relay candidate
// is ever gathered and no connection forms: the connection really goes through the TURN server.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import wrtc from '@roamhq/wrtc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectOptionsFor, formatInvite, parseInvite, type IceServer } from '../../src/net';
import { tempDir } from './helpers/relay';

let turn: ChildProcess | undefined;
let port = 0;
let log = '';
const tmp = tempDir('pacto-turn-');

async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const p = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

beforeAll(async () => {
  port = await freeUdpPort();
  turn = spawn(
    'turnserver',
    [
      '-n', // no config file
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--min-port=49152',
      '--max-port=65535',
      '--lt-cred-mech',
      '--user=pacto:turn-secret',
      '--realm=pacto.test',
      '--allow-loopback-peers',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--no-tcp-relay',
      `--userdb=${tmp.dir}/turndb`,
      `--pidfile=${tmp.dir}/turnserver.pid`,
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  turn.stdout!.on('data', (d) => (log += d));
  turn.stderr!.on('data', (d) => (log += d));
  for (let i = 0; i < 150 && !/Total General servers/.test(log); i++) await new Promise((r) => setTimeout(r, 100));
  if (!/Total General servers/.test(log)) throw new Error(`coturn did not start:\n${log}`);
}, 30_000);

afterAll(async () => {
  if (turn && turn.exitCode === null) {
    const exited = new Promise<void>((r) => turn!.once('exit', () => r()));
    turn.kill('SIGTERM');
    const t = setTimeout(() => turn!.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(t);
  }
  tmp.remove();
});

type PC = RTCPeerConnection;

/** Two peers with `iceServers`, relay-only; resolves with what happened within `ms`. */
async function pair(iceServers: readonly IceServer[], ms: number): Promise<{ open: boolean; echoed: string | null; types: string[]; pairType: string | null }> {
  const config = { iceServers: iceServers as RTCIceServer[], iceTransportPolicy: 'relay' as const };
  const a = new wrtc.RTCPeerConnection(config) as unknown as PC;
  const b = new wrtc.RTCPeerConnection(config) as unknown as PC;
  const types: string[] = [];
  const relayTo = (from: PC, to: PC) =>
    from.addEventListener('icecandidate', (e) => {
      if (!e.candidate) return;
      types.push(/ typ (\w+)/.exec(e.candidate.candidate)?.[1] ?? '?');
      void to.addIceCandidate(e.candidate).catch(() => undefined);
    });
  relayTo(a, b);
  relayTo(b, a);
  b.addEventListener('datachannel', (e) => e.channel.addEventListener('message', (m) => e.channel.send(`echo:${m.data}`)));
  const channel = a.createDataChannel('pacto');
  let echoed: string | null = null;
  channel.addEventListener('message', (m) => (echoed = String(m.data)));
  const opened = new Promise<boolean>((r) => {
    channel.addEventListener('open', () => {
      channel.send('through turn');
      r(true);
    });
    setTimeout(() => r(false), ms);
  });
  await a.setLocalDescription(await a.createOffer());
  await b.setRemoteDescription(a.localDescription!);
  await b.setLocalDescription(await b.createAnswer());
  await a.setRemoteDescription(b.localDescription!);
  const open = await opened;
  if (open) await expect.poll(() => echoed, { timeout: 5000 }).toBe('echo:through turn');
  let pairType: string | null = null;
  if (open) {
    const stats = await a.getStats();
    const all = [...(stats as unknown as Map<string, Record<string, unknown>>).values()];
    const selected = all.find((s) => s.type === 'candidate-pair' && s.state === 'succeeded' && (s.nominated || s.selected));
    const local = all.find((s) => s.id === selected?.localCandidateId);
    pairType = (local?.candidateType as string | undefined) ?? null;
  }
  channel.close();
  a.close();
  b.close();
  return { open, echoed, types, pairType };
}

describe('TURN through the invite', () => {
  it('two peers connect only through coturn, using the ICE servers the invite carries', async () => {
    const turnServer = { urls: `turn:127.0.0.1:${port}?transport=udp`, username: 'pacto', credential: 'turn-secret' };
    const invite = parseInvite(
      formatInvite('https://pacto.example/', { gameId: 'turn-game-000000001', password: 'turn-password-000001', signaling: [], iceServers: [turnServer] }),
    );
    const { iceServers } = connectOptionsFor(invite, { iceServers: [{ urls: 'stun:ignored.example' }] });
    expect(iceServers).toEqual([{ ...turnServer, urls: [turnServer.urls] }]);
    const r = await pair(iceServers, 20_000);
    expect(r.open).toBe(true);
    expect(r.echoed).toBe('echo:through turn');
    expect(r.types.length).toBeGreaterThan(0);
    expect(new Set(r.types)).toEqual(new Set(['relay']));
    expect(r.pairType).toBe('relay');
  }, 40_000);

  it('with a wrong credential no relay candidate is gathered and no connection forms', async () => {
    const r = await pair([{ urls: [`turn:127.0.0.1:${port}?transport=udp`], username: 'pacto', credential: 'wrong' }], 6000);
    expect(r.types).toEqual([]);
    expect(r.open).toBe(false);
  }, 20_000);
});
