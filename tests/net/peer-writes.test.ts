// GameReplica's peerWrites (src/net/README.md "Writing peers' entries later"): peers' entries wait
// in memory until they stop coming (bounded), this phone's own entries are written at once and
// take what waits with them, and flush() and destroy() never leave anything behind. The timers
// that must not fire in a test are set to a minute, so only the rule under test can write.
import { describe, expect, it } from 'vitest';
import { GameReplica, type EntryStorage } from '../../src/net';
import { startedGame, T0, view } from '../protocol/helpers';
import { fastVerifier } from './helpers/mesh';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MINUTE = 60_000;

function recording(): EntryStorage & { calls: { ids: string[]; strict: boolean }[]; stored: Set<string> } {
  const calls: { ids: string[]; strict: boolean }[] = [];
  const stored = new Set<string>();
  return {
    calls,
    stored,
    load: async () => ({ entries: [], failed: [] }),
    save: async (put, remove, strict) => {
      calls.push({ ids: put.map((e) => e.id), strict });
      for (const e of put) stored.add(e.id);
      for (const id of remove) stored.delete(id);
    },
    saveFailed: async () => undefined,
  };
}

async function opened(seed: number, peerWrites: { quietMs: number; maxMs: number }) {
  const game = startedGame(seed);
  const storage = recording();
  const austria = game.byPower.austria;
  const replica = await GameReplica.open({ gameId: game.gameId, storage, verifier: fastVerifier, self: austria.me.id, peerWrites });
  return { game, storage, replica, austria };
}

describe("peers' entries written later (peerWrites)", () => {
  it('keeps them in memory while they come, then writes them in one relaxed batch once they stop', async () => {
    const { game, storage, replica } = await opened(41, { quietMs: 40, maxMs: MINUTE });
    for (const bytes of game.log) replica.receiveEntries([bytes], { name: 'peer', origin: 'peer' });
    expect(replica.admission.size).toBe(game.log.length);
    // Admitted (the view reads them) but not written: a timer never fires early.
    expect(storage.calls).toEqual([]);
    await expect.poll(() => storage.calls.length, { timeout: 10_000, interval: 5 }).toBe(1);
    expect(storage.calls[0]!.strict).toBe(false);
    expect([...storage.stored].sort()).toEqual([...replica.admission.ids()].sort());
  });

  it('writes an own entry at once, strictly, with the waiting peers’ entries in the same batch', async () => {
    const { game, storage, replica, austria } = await opened(42, { quietMs: MINUTE, maxMs: MINUTE });
    replica.receiveEntries(game.log, { name: 'peer', origin: 'peer' });
    await sleep(30);
    expect(storage.calls).toEqual([]);
    const own = austria.commit(game.gameId, view(game), [], T0);
    await replica.publish([own.bytes]);
    expect(storage.calls).toHaveLength(1);
    expect(storage.calls[0]!.strict).toBe(true);
    expect(storage.calls[0]!.ids).toContain(own.id);
    expect([...storage.stored].sort()).toEqual([...replica.admission.ids()].sort());
  });

  it('flush() and writeNow() write what waits at once', async () => {
    const { game, storage, replica } = await opened(43, { quietMs: MINUTE, maxMs: MINUTE });
    replica.receiveEntries(game.log.slice(0, 3), { name: 'peer', origin: 'peer' });
    await sleep(30);
    expect(storage.calls).toEqual([]);
    await replica.flush();
    expect(storage.stored.size).toBe(3);
    replica.receiveEntries(game.log.slice(3), { name: 'peer', origin: 'peer' });
    expect(storage.calls).toHaveLength(1);
    replica.writeNow();
    await replica.flush();
    expect([...storage.stored].sort()).toEqual([...replica.admission.ids()].sort());
  });

  it('writes what waits when destroyed', async () => {
    const { game, storage, replica } = await opened(44, { quietMs: MINUTE, maxMs: MINUTE });
    replica.receiveEntries(game.log, { name: 'peer', origin: 'peer' });
    replica.destroy();
    await expect.poll(() => storage.stored.size, { timeout: 10_000, interval: 5 }).toBe(game.log.length);
  });

  it('a peer sending without pause cannot hold the writes back past maxMs', async () => {
    // The quiet period is a minute and entries keep coming every few ms: only the bound can write.
    const { game, storage, replica, austria } = await opened(45, { quietMs: MINUTE, maxMs: 80 });
    replica.receiveEntries(game.log, { name: 'peer', origin: 'peer' });
    const v = view(game);
    let sent = 0;
    const until = Date.now() + 5_000;
    while (storage.calls.length === 0 && Date.now() < until) {
      // Chat-free filler a peer could send: commits of another power under their quota.
      const c = game.byPower.france.commit(game.gameId, v, [], T0 + sent++);
      replica.receiveEntries([c.bytes], { name: 'peer', origin: 'peer' });
      await sleep(5);
      if (sent > 8) sent = 0;
    }
    expect(storage.calls.length).toBeGreaterThan(0);
    expect(storage.calls[0]!.strict).toBe(false);
    void austria;
  });
});
