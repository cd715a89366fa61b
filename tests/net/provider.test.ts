// The provider registry (one provider per room per page), room names that hide the game, and the
// sync-message splitting that y-webrtc's peers apply without knowing.
import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { attachSignaling } from '../../src/net/signal/server';
import {
  appendMessage,
  connectGame,
  createGameDoc,
  NetError,
  NetSettingsError,
  openRooms,
  readLog,
  roomNameFor,
  splitSyncMessage,
  syncStep1Message,
  type GameConnection,
} from '../../src/net';

const open: GameConnection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.destroy();
});

function connect(doc: Y.Doc, gameId = 'registry-game-1'): GameConnection {
  // No signaling server: nothing leaves the process.
  const c = connectGame(doc, { gameId, password: 'registry-password-01', signaling: [] });
  open.push(c);
  return c;
}

describe('one provider per room per page', () => {
  it('shares the provider for the same doc and refuses another doc', async () => {
    const doc = createGameDoc();
    const a = connect(doc);
    const b = connect(doc);
    expect(b.roomName).toBe(a.roomName);
    expect(openRooms()).toEqual([a.roomName]);
    expect(() => connect(createGameDoc())).toThrow(NetError);
    a.destroy();
    expect(openRooms()).toEqual([a.roomName]); // b still holds it
    b.destroy();
    expect(openRooms()).toEqual([]);
    await new Promise((r) => setTimeout(r, 20)); // y-webrtc closes its room asynchronously
    const again = connect(createGameDoc());
    expect(openRooms()).toEqual([again.roomName]);
    await new Promise((r) => setTimeout(r, 20)); // an async "room already exists" would surface here
  });

  it('keeps separate games apart and reports an idle status', () => {
    const one = connect(createGameDoc(), 'registry-game-1');
    const two = connect(createGameDoc(), 'registry-game-2');
    expect(openRooms()).toEqual([one.roomName, two.roomName].sort());
    expect(one.status()).toMatchObject({ active: true, signalingConnected: false, webrtcPeers: 0, synced: false });
    one.disconnect();
    expect(one.status().active).toBe(false);
    one.connect();
    expect(one.status().active).toBe(true);
    expect(one.resync()).toBe(0);
  });

  it('closes its signaling socket when the last handle is released', async () => {
    // lib0's WebSocket client expects the browser global; Node 20 has none.
    (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
    const http = createServer();
    const signaling = attachSignaling(http);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const doc = createGameDoc();
      const c = connectGame(doc, {
        gameId: 'registry-game-9',
        password: 'registry-password-01',
        signaling: [`ws://127.0.0.1:${(http.address() as AddressInfo).port}`],
      });
      await expect.poll(() => signaling.stats.connections, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => c.status().signalingConnected, { timeout: 10_000 }).toBe(true);
      c.disconnect();
      await expect.poll(() => signaling.stats.connections, { timeout: 10_000 }).toBe(0);
      c.connect();
      await expect.poll(() => signaling.stats.connections, { timeout: 10_000 }).toBe(1);
      c.destroy();
      await expect.poll(() => signaling.stats.connections, { timeout: 10_000 }).toBe(0);
    } finally {
      await signaling.close();
      await new Promise<void>((r) => http.close(() => r()));
    }
  });

  it('refuses bad signaling or ICE addresses before connecting', () => {
    const doc = createGameDoc();
    expect(() => connectGame(doc, { gameId: 'g-12345678', password: 'p'.repeat(20), signaling: ['http://x.example/'] })).toThrow(NetSettingsError);
    expect(() => connectGame(doc, { gameId: 'g-12345678', password: 'p'.repeat(20), signaling: [], iceServers: [{ urls: 'http://x' }] })).toThrow(
      NetSettingsError,
    );
    expect(openRooms()).toEqual([]);
  });
});

describe('room names', () => {
  it('reveal neither the game id nor the password, and depend on both', () => {
    const name = roomNameFor('0123456789abcdef', 'secret-password-xyz');
    expect(name).not.toContain('0123456789abcdef');
    expect(name).not.toContain('secret');
    expect(roomNameFor('0123456789abcdef', 'secret-password-xyz')).toBe(name);
    expect(roomNameFor('0123456789abcdef', 'other-password-xyz')).not.toBe(name);
    expect(roomNameFor('0123456789abcdee', 'secret-password-xyz')).not.toBe(name);
  });
});

describe('splitSyncMessage', () => {
  /** What a y-webrtc peer does with each message: y-protocols' readSyncMessage into its doc. */
  function receive(doc: Y.Doc, message: Uint8Array): number {
    const dec = decoding.createDecoder(message);
    expect(decoding.readVarUint(dec)).toBe(0);
    return syncProtocol.readSyncMessage(dec, encoding.createEncoder(), doc, 'peer');
  }

  it('turns a 600 KiB step 2 into small updates and a final empty step 2', () => {
    const source = createGameDoc();
    for (let i = 0; i < 300; i++) appendMessage(source, new Uint8Array(2000).fill(i & 0xff));
    const target = createGameDoc();
    // The target asks; the source answers as y-protocols would, in one message.
    const ask = decoding.createDecoder(syncStep1Message(target));
    decoding.readVarUint(ask);
    const answer = encoding.createEncoder();
    encoding.writeVarUint(answer, 0);
    syncProtocol.readSyncMessage(ask, answer, source, null);
    const whole = encoding.toUint8Array(answer);
    expect(whole.length).toBeGreaterThan(600_000);
    const parts = splitSyncMessage(whole, 64 * 1024);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(64 * 1024);
    const types = parts.map((p) => receive(target, p));
    expect(types.slice(0, -1).every((t) => t === syncProtocol.messageYjsUpdate)).toBe(true);
    expect(types[types.length - 1]).toBe(syncProtocol.messageYjsSyncStep2);
    expect(readLog(target).length).toBe(300);
    expect(Y.encodeStateVector(target)).toEqual(Y.encodeStateVector(source));
  });

  it('passes small messages and non-sync messages through', () => {
    const small = new Uint8Array([0, 2, 2, 0, 0]);
    expect(splitSyncMessage(small, 64)).toEqual([small]);
    const awareness = new Uint8Array(1000).fill(1);
    expect(splitSyncMessage(awareness, 64)).toEqual([awareness]);
  });
});
