// Each key's escrow key (src/protocol/README.md "Key escrow"): the lobby's (a version 5 START's
// pins, else the one a key's JOINs agree on) and, from the fold on, those hand-overs pinned
// (fold.ts phaseEscrowKeys). One fact: the view's players carry it through one function
// (lobby.ts withEscrowKeys) in the lobby and in the game, and a phase computes it once for its
// ballot and its hand-overs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEscrowKeys } from '../../src/protocol/lobby';
import { payloadOf, startedGame, view } from './helpers';

describe('a player’s escrow key, computed in one place', () => {
  it('withEscrowKeys: the key the map names, else the one the JOINs agree on; an unchanged player is the same object', () => {
    const players = [
      { key: 'a', fingerprint: 'fa', name: 'A', box: 'x', escrow: 'e1', claim: null },
      { key: 'b', fingerprint: 'fb', name: 'B', box: 'y', escrow: null, claim: null },
      { key: 'c', fingerprint: 'fc', name: 'C', box: 'z', escrow: 'e3', claim: null },
    ] as never[];
    const out = withEscrowKeys(
      players,
      new Map([
        ['a', 'e1'],
        ['b', 'e2'],
        ['d', 'e4'],
      ]),
    );
    expect(out.map((p: { escrow: string | null }) => p.escrow)).toEqual(['e1', 'e2', 'e3']);
    expect(out[0]).toBe(players[0]);
    expect(out[2]).toBe(players[2]);
  });

  it('the view’s players carry the START’s pins', () => {
    const g = startedGame(87);
    const pins = payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!).escrow as Record<string, string>;
    const v = view(g);
    expect(v.players.length).toBeGreaterThan(0);
    for (const p of v.players) expect(p.escrow).toBe(pins[p.key]);
  });

  it('no file of src/protocol sets a player’s escrow but withEscrowKeys, and a phase computes its escrow keys once', () => {
    const dir = join(__dirname, '../../src/protocol');
    const setters: string[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const m of text.matchAll(/\{\s*\.\.\.\w+,\s*escrow\b/g)) setters.push(`${f}: ${m[0]}`);
    }
    expect(setters).toEqual(['lobby.ts: { ...p, escrow']);
    const reduce = readFileSync(join(dir, 'reduce.ts'), 'utf8');
    expect([...reduce.matchAll(/phaseEscrowKeys\(input\.escrowKeys/g)]).toHaveLength(1);
  });
});
