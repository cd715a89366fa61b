// Escrow checks remembered with the verifier (memo.ts escrowChecksOf): a phone checks each REVEAL's
// secrets and shares once per session, and a rebuild from scratch with the same verifier answers
// from what it remembers. What it remembers must never make a different entry pass: a REVEAL
// with another secret or other shares for the same commits is refused exactly as without memory.
import { describe, expect, it } from 'vitest';
import { cachedVerifier, checkSignature, clearMemos, encodePayload, reduceLog, signPayloadBytes, type Payload } from '../../src/protocol';
import { lockedGame, payloadOf, settlePhase, stateOf, T0, view } from './helpers';

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
});
