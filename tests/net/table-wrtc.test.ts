// Pairing Node peers (libwebrtc through @roamhq/wrtc) with nothing but pairing codes: the rebuilt
// SDPs must be accepted by a real WebRTC stack, and the data channels must carry the game's signed
// messages byte for byte, guest to guest through the host.
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import wrtc from '@roamhq/wrtc';
import { appendMessage, readLog } from '../../src/net';
import { createIdentity, openMessage, signMessage } from '../../src/protocol';
import { TableHost, TableProvider, decodePairingCode, joinTable, type TablePeerOptions } from '../../src/net/table';

/** A game id as the protocol makes them: 32 hex digits. */
const GAME = '7a6b1e0c9d2f4a3b8c5d6e7f0a1b2c3d';
const options: TablePeerOptions = { iceServers: [], wrtc: wrtc as unknown as TablePeerOptions['wrtc'] };
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

function provider(): TableProvider {
  const p = new TableProvider(new Y.Doc(), { resyncMs: 0 });
  cleanup.push(() => p.destroy());
  return p;
}

function join(p: TableProvider, n: number, name: string): void {
  const identity = createIdentity(new Uint8Array(32).fill(n), new Uint8Array(32).fill(n + 100));
  appendMessage(
    p.doc,
    signMessage(identity, { type: 'join', game: GAME, seq: 1, time: 0, name, box: identity.boxPublicKey, escrow: identity.escrowPublicKey, power: null }),
  );
}

/** Names of the players whose join messages verify. */
function joined(p: TableProvider): string[] {
  return readLog(p.doc)
    .map((m) => openMessage(m))
    .flatMap((o) => (o.ok && o.message.payload.type === 'join' ? [o.message.payload.name] : []))
    .sort();
}

describe('table pairing over node WebRTC', () => {
  it('links two guests through open invitations answered out of order, and relays between them', async () => {
    const hostProvider = provider();
    const host = new TableHost(hostProvider, options);
    cleanup.push(() => host.cancelInvitations());
    const [a, b] = [provider(), provider()];
    join(hostProvider, 1, 'host');

    const first = await host.invite();
    const second = await host.invite();
    expect(first.slot).not.toBe(second.slot);
    expect(decodePairingCode(first.code).type).toBe('offer');
    const joinA = await joinTable(a, first.code, options);
    const joinB = await joinTable(b, second.code, options);
    cleanup.push(joinA.cancel, joinB.cancel);
    expect(decodePairingCode(joinA.code)).toMatchObject({ type: 'answer', slot: first.slot, setup: 'active' });

    await Promise.all([host.accept(joinB.code), joinB.joined]);
    await Promise.all([host.accept(joinA.code), joinA.joined]);
    expect(hostProvider.status.peers).toBe(2);

    join(a, 2, 'guest a');
    join(b, 3, 'guest b');
    const everyone = ['guest a', 'guest b', 'host'];
    for (const p of [hostProvider, a, b]) await expect.poll(() => joined(p), { timeout: 15_000 }).toEqual(everyone);
    expect(readLog(a.doc)).toEqual(readLog(b.doc));
  }, 30_000);

  it('refuses an offer (keeping the invitation open), the same answer twice, and an answer it did not invite', async () => {
    const host = new TableHost(provider(), options);
    const other = new TableHost(provider(), options);
    cleanup.push(
      () => host.cancelInvitations(),
      () => other.cancelInvitations(),
    );
    const mine = await host.invite();
    await expect(host.accept(mine.code)).rejects.toThrow(/expected an answer/);
    // The mistake did not use up the invitation.
    const guest = await joinTable(provider(), mine.code, options);
    cleanup.push(guest.cancel);
    await host.accept(guest.code);
    await expect(host.accept(guest.code)).rejects.toThrow(/no open invitation/);

    const theirs = await other.invite();
    host.cancelInvitations();
    const stranger = await joinTable(provider(), theirs.code, options);
    cleanup.push(stranger.cancel);
    await expect(host.accept(stranger.code)).rejects.toThrow(/no open invitation/);
  }, 30_000);

  it('gives up pairing with a guest that has gone, after the connect timeout', async () => {
    const host = new TableHost(provider(), { ...options, connectTimeoutMs: 1500 });
    cleanup.push(() => host.cancelInvitations());
    const offer = await host.invite();
    const guest = await joinTable(provider(), offer.code, options);
    guest.cancel(); // the guest closed the app before the host scanned the answer
    await expect(guest.joined).rejects.toThrow();
    await expect(host.accept(guest.code)).rejects.toThrow(/could not reach/);
  }, 30_000);
});
