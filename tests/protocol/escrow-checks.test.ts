// Escrow checks remembered with the verifier (memo.ts escrowChecksOf): a phone checks each REVEAL's
// secrets and shares once per session, and a rebuild from scratch with the same verifier answers
// from what it remembers. What it remembers must never make a different entry pass: a REVEAL
// with another secret or other shares for the same commits is refused exactly as without memory,
// and so is a commit whose escrow has a point that does not decode beside points it shares with a
// commit already checked.
import { describe, expect, it } from 'vitest';
import { cachedVerifier, checkSignature, clearMemos, encodePayload, parseEntry, reduceLog, signPayloadBytes, toBase64, type Payload } from '../../src/protocol';
import { lockedGame, payloadOf, settlePhase, startedGame, stateOf, T0, view } from './helpers';

describe('escrow checks remembered with the verifier', () => {
  it('after the honest REVEAL was checked, a REVEAL with another secret or swapped shares is still refused, with a remembering verifier as with a fresh one', () => {
    const { game } = lockedGame(41);
    const france = game.byPower.france;
    const honest = france.reveal(game.gameId, view(game), game.log, T0 + 200);
    const p = payloadOf(honest.bytes) as Payload & { secrets: string[]; shares: string[] };
    const signed = (over: Partial<Record<'secrets' | 'shares', unknown>>) => signPayloadBytes(france.me, encodePayload({ ...p, ...over } as Payload));
    const [s0, s1, ...rest] = p.shares;
    const bad = [
      { bytes: signed({ secrets: [s0!] }), reason: 'reveal-misses-a-secret' },
      { bytes: signed({ shares: [s1!, s0!, ...rest] }), reason: 'reveal-share-does-not-check' },
    ];
    const remembering = cachedVerifier(checkSignature);
    // Alone, the honest REVEAL's six shares and its secret are checked, and remembered.
    const checked = reduceLog(game.gameId, [...game.log, honest.bytes], { verifier: remembering });
    expect(checked.current!.ballot.reveals[france.me.id]).toHaveLength(1);
    for (const b of bad) {
      clearMemos();
      const withMemory = reduceLog(game.gameId, [...game.log, b.bytes], { verifier: remembering });
      clearMemos();
      const without = reduceLog(game.gameId, [...game.log, b.bytes], { verifier: cachedVerifier(checkSignature) });
      expect(withMemory.ignored.filter((i) => i.reason === b.reason).length).toBeGreaterThan(0);
      expect(withMemory.current!.ballot.reveals[france.me.id] ?? []).toHaveLength(0);
      expect(stateOf(withMemory)).toEqual(stateOf(without));
      expect(withMemory.ignored).toEqual(without.ignored);
    }
  });

  it('a whole phase rebuilt from scratch with a remembering verifier reaches the same view as with a fresh one', () => {
    const { game } = lockedGame(43);
    settlePhase(game, T0 + 300);
    const remembering = cachedVerifier(checkSignature);
    reduceLog(game.gameId, game.log, { verifier: remembering });
    clearMemos();
    const again = reduceLog(
      game.gameId,
      game.log.map((b) => b.slice()),
      { verifier: remembering },
    );
    clearMemos();
    const fresh = reduceLog(
      game.gameId,
      game.log.map((b) => b.slice()),
      { verifier: cachedVerifier(checkSignature) },
    );
    expect(again.phases).toHaveLength(1);
    expect(again.stateHash).toBe(fresh.stateHash);
    expect(stateOf(again)).toEqual(stateOf(fresh));
  });

  it('after an honest commit’s escrow points were checked, a commit with the same points but one that does not decode (E, the first or the last S_i) is still refused', () => {
    const game = startedGame(47);
    const france = game.byPower.france;
    const honest = france.commit(game.gameId, view(game), [], T0 + 100);
    const p = payloadOf(honest.bytes);
    const escrow = p.escrow as { c: string[]; e: string | null; s: string[] };
    expect(escrow.e).not.toBeNull();
    expect(escrow.c.length).toBeGreaterThan(2);
    const notPoint = toBase64(new Uint8Array(32).fill(255));
    const variants = [{ e: notPoint }, { c: [notPoint, ...escrow.c.slice(1)] }, { c: [...escrow.c.slice(0, -1), notPoint] }];
    const remembering = cachedVerifier(checkSignature);
    const checked = reduceLog(game.gameId, [...game.log, honest.bytes], { verifier: remembering });
    expect(checked.current!.ballot.commits.france).toEqual([honest.id]);
    for (const [k, over] of variants.entries()) {
      const bytes = signPayloadBytes(france.me, encodePayload({ ...p, seq: (p.seq as number) + 1 + k, escrow: { ...escrow, ...over } } as unknown as Payload));
      const parsed = parseEntry(bytes);
      if (!parsed.ok) throw new Error(parsed.reason);
      const id = parsed.entry.id;
      clearMemos();
      const withMemory = reduceLog(game.gameId, [...game.log, honest.bytes, bytes], { verifier: remembering });
      clearMemos();
      const without = reduceLog(game.gameId, [...game.log, honest.bytes, bytes], { verifier: cachedVerifier(checkSignature) });
      expect(withMemory.ignored.filter((i) => i.id === id)).toEqual([{ id, reason: 'commit-bad-escrow' }]);
      expect(withMemory.current!.ballot.commits.france).toEqual([honest.id]);
      expect(stateOf(withMemory)).toEqual(stateOf(without));
      expect(withMemory.ignored).toEqual(without.ignored);
    }
  });
});
