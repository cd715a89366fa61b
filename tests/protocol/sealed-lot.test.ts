// Issue 12, attack 4: steering the lot. Property: one lot commit per player, closed by a list the
// START must honour; no single player, the creator included, can choose its power. Measured
// exactly: in each seeded lobby the adapter lists every power the attacker can end up with by
// choosing among everything it can sign once it has read all it can read (`reachable`); its chance
// of getting a power it names in advance is |reachable| / 7. Fair: exactly one reachable power.
import { describe, expect, it } from 'vitest';
import { lotRun, type LotAttack } from './sealed-adapter';

/** The attacker's chance of a chosen power, averaged over `n` seeded lobbies. */
function chance(attack: LotAttack, n: number, seed: number): { p: number; sizes: number[] } {
  const sizes = Array.from({ length: n }, (_, k) => lotRun(seed + k, attack).reachable.size);
  return { p: sizes.reduce((a, b) => a + b, 0) / (7 * n), sizes };
}

const FAIR = 1 / 7;

describe('attack 4: nobody steers the lot', () => {
  it('a player who signs 40 lot commits gets a chosen power no more often than by chance', () => {
    const { p, sizes } = chance({ kind: 'many-commits', attacker: 3, commits: 40 }, 4, 401);
    expect(p, `reachable powers per lobby: ${sizes.join(' ')}`).toBeLessThanOrEqual(FAIR + 0.01);
  });

  it('the creator, choosing which reveals count, gets a chosen power no more often than by chance', () => {
    const { p, sizes } = chance({ kind: 'creator-chooses' }, 6, 411);
    expect(p, `reachable powers per lobby: ${sizes.join(' ')}`).toBeLessThanOrEqual(FAIR + 0.01);
  });

  it('the last revealer, revealing or withholding after reading everyone, does no better than chance (issue: 0.14 -> 0.27)', () => {
    const { p, sizes } = chance({ kind: 'last-revealer', attacker: 5 }, 20, 421);
    expect(p, `reachable powers per lobby: ${sizes.join(' ')}`).toBeLessThanOrEqual(FAIR + 0.01);
  });

  it('a colluding pair (the creator and one player) can at most choose between two deals (the documented residual)', () => {
    // docs/sealed-design.md: with escrow at "all other players", two withholders can still
    // refuse to open together; that is a choice between two deals, never more.
    const { p, sizes } = chance({ kind: 'pair', accomplice: 4 }, 6, 431);
    expect(Math.max(...sizes), `reachable powers per lobby: ${sizes.join(' ')}`).toBeLessThanOrEqual(2);
    expect(p).toBeLessThanOrEqual(2 * FAIR + 0.01);
  });
});
