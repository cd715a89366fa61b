// The runner does the holder's escrow work ahead (src/ui/game/ahead.ts): once a commit is
// admitted, each other phone checks its share of it in idle time, before any LOCK is due, so the
// LOCK after the last commit only reads what is remembered (client.ts prepareShare).
import { describe, expect, it } from 'vitest';
import { escrowHolders, gameMessages } from '../../src/protocol';
import type { CommitPayload } from '../../src/protocol/messages';
import { clearEscrowMemos, holderChecked } from '../../src/protocol/escrow';
import { settle, startedOnThree } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;

/** Ana's game started on three wired phones (Bea and Carl joined), every runner settled. */
async function started() {
  const { gameId, phones } = await startedOnThree(clock, now);
  const [a, b, c] = phones;
  return { gameId, phones, a, b, c };
}

describe('work done ahead by the runner', () => {
  it('checks its share of a commit as soon as the commit is in, long before its LOCK', async () => {
    const { phones, a, b, c } = await started();
    clearEscrowMemos();
    await a.runner.seal('france', []);
    await settle(phones);
    const current = b.runner.view.current!;
    const commit = current.ballot.heads.france!;
    expect(commit).toBeDefined();
    // Nobody can LOCK yet: the other powers have not sealed.
    expect(current.ballot.locks).toEqual({});
    const holders = escrowHolders(current.ballotKeys, a.device.identity.id);
    for (const p of [b, c]) {
      const index = holders.indexOf(p.device.identity.id) + 1;
      expect(index).toBeGreaterThan(0);
      expect(holderChecked(p.device.identity.escrowPublicKey, commit, index), `${p.runner.current.me.name} checked its share ahead`).toBe(true);
    }
    // The sealer holds no share of its own commit.
    expect(holders).not.toContain(a.device.identity.id);
    for (const p of phones) p.runner.close();
  });

  it('hands the random bytes it drew ahead to one seal only: a re-seal deals from fresh bytes', async () => {
    // Idle time (started settles): France's first seal of the phase has its escrow dealt ahead, from bytes drawn for it.
    const { gameId, phones, a } = await started();
    const commits: CommitPayload[] = [];
    for (let i = 0; i < 3; i++) {
      await a.runner.seal('france', []);
      await settle(phones);
      const head = a.runner.view.current!.ballot.heads.france!;
      const m = gameMessages(gameId, a.replica.entries(), a.replica.verifier).get(head);
      expect(m?.payload.type).toBe('commit');
      commits.push(m!.payload as CommitPayload);
    }
    // Each seal's escrow comes from its own bytes: the commitment to its secret and E are new each time.
    expect(new Set(commits.map((p) => p.escrow.c[0])).size).toBe(3);
    expect(new Set(commits.map((p) => p.escrow.e)).size).toBe(3);
    for (const p of phones) p.runner.close();
  });
});
