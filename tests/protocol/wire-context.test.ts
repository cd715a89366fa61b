// What a compact entry is read with (lobby.ts wireContextOf; src/protocol/README.md "The compact wire
// form"): the game and the key list of each START of its creator, in id order. One fact, computed
// in one place for the admission (what it holds, and what its store holds at restore) and the
// reducer (openLog), so the two can never read one compact entry two ways.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Admission, compactEntry, createGame, reduceLog, startGame, startKeys, wireContextOf, type Message } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { escrowOf, identity, messagesOf, payloadOf, rng, settings, startedGame, T0, type Game } from './helpers';

/** Another START of `g`'s creator with `fresh` in the place of the player `gone` (its key list differs). */
function otherStart(g: Game, gameId: string, gone: number, fresh: number, seq: number): Message & { bytes: Uint8Array } {
  const roster = Object.fromEntries(g.phones.map((ph, i) => [ph.power, i === gone ? identity(fresh).id : ph.me.id])) as Record<Power, string>;
  const s = startGame(g.phones[0]!.me, gameId, roster, escrowOf([...g.phones.map((p) => p.me), identity(fresh)]), { seq, time: T0 + 500 });
  return { id: s.id, payload: payloadOf(s.bytes) as Message['payload'], bytes: s.bytes };
}

describe('wireContextOf: the STARTs a compact entry is read with', () => {
  const g = startedGame(84);
  const messages = [...messagesOf(g.log).values()];
  const start = messages.find((m) => m.id === g.startId)!;
  const late = otherStart(g, g.gameId, 3, 95, 40);

  it("takes the bound creator's STARTs of this game only, each once, lowest (seq, id) first, the anchor first", () => {
    const other = startedGame(85);
    const foreign = otherStart(other, other.gameId, 2, 96, 41);
    // A START by a member (not the creator), and a CREATE of another game by a member.
    const byMember = { id: 'ff'.repeat(16), payload: { ...start.payload, from: g.phones[1]!.me.id } } as Message;
    const made = createGame(g.phones[1]!.me, rng(86).bytes(16), settings(), { seq: 0, time: T0 }).message;
    const stranger = { id: made.id, payload: { ...(payloadOf(made.bytes) as Message['payload']), game: g.gameId } } as Message;
    const ctx = wireContextOf(g.gameId, [late, byMember, foreign, start, late, stranger, ...messages]);
    // The game's START (seq 2) before the late one (seq 40), whatever their ids; the anchor before both.
    const ids = [g.startId, late.id];
    expect(ctx.startIds).toEqual(ids);
    expect(ctx.game).toBe(g.gameId);
    expect(ctx.keyLists).toEqual(ids.map((id) => startKeys((id === late.id ? late : start).payload as never)));
    expect(wireContextOf(g.gameId, [late, start, ...messages], late.id).startIds).toEqual([late.id, g.startId]);
    // No CREATE bound to the game: no creator, no START counts.
    expect(wireContextOf(g.gameId, [start, late]).keyLists).toEqual([]);
  });

  it('the admission reads with the context of what it holds, and the reducer reads its compact entries alike', () => {
    const log = [...g.log, late.bytes];
    const a = new Admission(g.gameId);
    for (const b of log) a.offer(b);
    const { game, keyLists } = wireContextOf(g.gameId, messagesOf(a.entries()).values());
    expect(keyLists).toHaveLength(2);
    expect(a.wireContext()).toMatchObject({ game, keyLists });
    const compact = log.map((b) => compactEntry(b, startKeys(start.payload as never)));
    expect(reduceLog(g.gameId, compact).stateHash).toBe(reduceLog(g.gameId, log).stateHash);
  });

  it('no file of src/protocol builds a context from START key lists but wireContextOf', () => {
    const dir = join(__dirname, '../../src/protocol');
    const builders: string[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const m of text.matchAll(/keyLists:\s*([^,}\n]+)/g)) {
        // The interface field itself, wireContextOf's own return, and the empty (no START) context.
        if (f === 'codec.ts' && m[1]!.startsWith('readonly')) continue;
        if (f === 'lobby.ts' && m[1]!.startsWith('startIds.map')) continue;
        if (m[1]!.trim() === '[]') continue;
        builders.push(`${f}: ${m[0]}`);
      }
    }
    expect(builders).toEqual([]);
  });
});
