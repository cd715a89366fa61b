// One cheater's spoiled escrow share for a holder whose LOCK did not name that commit (README.md
// "The sealed ballot", "a REVEAL's complaint in a share's place"). Before protocol version 6 the
// holder owed a share it could not give and could not complain about: its REVEAL was refused and
// its own orders were lost at the price of the cheater's. A version 6 REVEAL carries, in that
// share's place, the same complaint a LOCK carries.
import { describe, expect, it } from 'vitest';
import { messageId, voteTimeout, type GameView } from '../../src/protocol';
import { proveShared } from '../../src/protocol/escrow';
import { decodePayload, encodePayload } from '../../src/protocol/codec';
import { checkPayload, PROTOCOL_VERSION, type Payload } from '../../src/protocol/messages';
import { payloadOf, startedGame, T0, view, type Game, type Phone } from './helpers';
import { equivocatedFinals, resign, spoiledCommit } from './complaint-helpers';

/** The equivocated-FINALs game with France the key that locked blind (complaint-helpers.ts). */
function equivocatedFinalsFrance(seed: number) {
  const { blind: france, ...rest } = equivocatedFinals(startedGame(seed));
  return { ...rest, france };
}

const revealsOf = (v: GameView) => v.ignored.filter((x) => x.reason.startsWith('reveal'));

/** `author`'s REVEAL with `change` applied to its payload, re-signed. */
function tampered(game: Game, author: Phone, change: (p: Record<string, any>) => Record<string, any>): Uint8Array {
  const honest = author.reveal(game.gameId, view(game), game.log, T0 + 105);
  return resign(author.me, change(payloadOf(honest.bytes)));
}

describe('a spoiled share for a holder whose own LOCK did not name the commit', () => {
  it('FINAL equivocation: France complains in its REVEAL, its orders are played, Turkey is void', () => {
    const { game, key, turkey, france, b } = equivocatedFinalsFrance(7);
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    const fromFrance = payloadOf(game.log.find((x) => payloadOf(x).type === 'reveal' && payloadOf(x).from === france.me.id)!);
    expect(fromFrance.complaints.map((k: { commit: string }) => k.commit)).toEqual([b]);
    const after = view(game);
    expect(revealsOf(after), 'no honest REVEAL is refused').toEqual([]);
    // Turkey withholds its REVEAL (so its share of France's commit): France's own secret opens it.
    expect(after.phases).toHaveLength(1);
    const spring = after.phases[0]!;
    expect(spring.civilDisorder).toContain('turkey');
    expect(spring.civilDisorder).not.toContain('france');
    expect(spring.commits.france).toBe(france.commits.get(key)!.at(-1));
    expect(after.misconduct.filter((m) => m.author === turkey.me.id).map((m) => m.kind)).toContain('equivocation');
  });

  it("timed-out heads: France named Turkey's older commit; the later one, spoiled for France, is void and France's orders are played", () => {
    const game = startedGame(8);
    const v0 = view(game);
    const key = v0.current!.key;
    const turkey = game.byPower.turkey;
    const france = game.byPower.france;
    for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
    const a = turkey.commits.get(key)!.at(-1)!;
    const v1 = view(game);
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.final(game.gameId, v1, T0 + 102).bytes);
    const late = v1.current!.revealDeadline + 5;
    for (const ph of game.phones) if (ph !== turkey) game.log.push(voteTimeout(ph.me, game.gameId, key, ['turkey'], ph.stamp(late)).bytes);
    expect(view(game).current?.timedOut).toEqual(['turkey']);
    game.log.push(france.lock(game.gameId, view(game), game.log, late + 1).bytes);
    const bBytes = spoiledCommit(game, v0, turkey, [france], late + 2);
    const b = messageId(bBytes);
    game.log.push(bBytes);
    expect(payloadOf(game.log.at(-2)!).heads.turkey).toBe(a);
    for (const ph of game.phones) if (ph !== france && ph !== turkey) game.log.push(ph.lock(game.gameId, view(game), game.log, late + 3).bytes);
    expect(payloadOf(game.log.at(-1)!).heads.turkey).toBe(b);
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.reveal(game.gameId, view(game), game.log, late + 4).bytes);
    const after = view(game);
    expect(revealsOf(after), 'no honest REVEAL is refused').toEqual([]);
    expect(after.phases).toHaveLength(1);
    const spring = after.phases[0]!;
    expect(spring.civilDisorder).not.toContain('france');
    expect(spring.commits.france).toBe(france.commits.get(key)!.at(-1));
    // The counted head is B (highest seq), provably spoiled: void, as a LOCK complaint would make it.
    expect(spring.civilDisorder).toContain('turkey');
    expect(after.misconduct.some((m) => m.author === turkey.me.id && m.kind === 'escrow-bad-share' && m.ids.includes(b))).toBe(true);
  });
});

describe('a complaint in a REVEAL excuses only a share that provably does not check', () => {
  const escrowE = (game: Game, commit: string) => payloadOf(game.log.find((x) => messageId(x) === commit)!).escrow.e as string;

  it('a complaint with a true proof against an honest commit, in the place of a share owed, is refused', () => {
    const { game, key, a, b } = equivocatedFinalsFrance(9);
    const england = game.byPower.england;
    // England's LOCK named FINAL B: A is a commit England's own LOCK did not name, and England's share of it checks.
    const owedOrder = game.phones
      .filter((ph) => ph !== england)
      .flatMap((ph) => ph.commits.get(key) ?? [])
      .concat([b])
      .sort();
    const at = owedOrder.indexOf(a);
    expect(at).toBeGreaterThanOrEqual(0);
    const proof = proveShared(england.me.escrowSecret, escrowE(game, a), a)!;
    const honest = payloadOf(england.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    expect(honest.complaints).toEqual([]);
    const forged = tampered(game, england, (p) => ({
      ...p,
      shares: (p.shares as string[]).filter((_, n) => n !== at),
      complaints: [{ commit: a, k: proof.k, proof: proof.proof }],
    }));
    game.log.push(forged);
    const v = view(game);
    expect(v.ignored).toContainEqual({ id: messageId(forged), reason: 'reveal-complaint-does-not-check' });
    expect(v.current?.ballot.reveals[england.me.id]).toBeUndefined();
  });

  it('a complaint about a commit its own LOCK named (it would have complained there, blind) is refused', () => {
    const { game, france, a } = equivocatedFinalsFrance(10);
    const proof = proveShared(france.me.escrowSecret, escrowE(game, a), a)!;
    const forged = tampered(game, france, (p) => ({
      ...p,
      complaints: [{ commit: a, k: proof.k, proof: proof.proof }, ...p.complaints].sort((x, y) => (x.commit < y.commit ? -1 : 1)),
    }));
    game.log.push(forged);
    const v = view(game);
    expect(v.ignored).toContainEqual({ id: messageId(forged), reason: 'reveal-complains-about-commit-not-owed' });
  });

  it('the shape: a REVEAL of version 6 on lists its complaints (maybe none); an older one has none', () => {
    const { game, france } = equivocatedFinalsFrance(11);
    const reveal = payloadOf(france.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    expect(reveal.v).toBe(PROTOCOL_VERSION);
    expect(checkPayload(reveal).ok).toBe(true);
    const { complaints: _c, ...bare } = reveal;
    expect(checkPayload(bare)).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...reveal, v: 5 })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...bare, v: 5 }).ok).toBe(true);
  });

  it('bytes whose complaints are out of order are refused with a reason, not a throw (one byte form)', () => {
    const { game, turkey, france, b } = equivocatedFinalsFrance(12);
    expect(turkey).toBeDefined();
    const p = payloadOf(france.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    expect(p.complaints.map((k: { commit: string }) => k.commit)).toEqual([b]);
    const two = { ...p, complaints: [{ ...p.complaints[0], commit: '00'.repeat(16) }, ...p.complaints] };
    const bytes = encodePayload(two as unknown as Payload);
    expect(decodePayload(bytes).ok).toBe(true);
    // Each complaint is 16 + 32 + 64 bytes and the list ends the payload: swap the two.
    const n = bytes.length;
    const swapped = new Uint8Array([...bytes.subarray(0, n - 224), ...bytes.subarray(n - 112), ...bytes.subarray(n - 224, n - 112)]);
    let decoded: ReturnType<typeof decodePayload> | undefined;
    expect(() => (decoded = decodePayload(swapped))).not.toThrow();
    expect(decoded).toEqual({ ok: false, reason: 'binary-not-canonical' });
    expect(() => encodePayload({ ...two, complaints: [...two.complaints].reverse() } as unknown as Payload)).toThrow();
  });
});
