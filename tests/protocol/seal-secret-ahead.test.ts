// The secret of a seal to come, known ahead (client.ts sealSecretAhead): the runner keeps it on
// disk before the seal, under its escrow's tag, and finds it again from the commit (commitSealTag).
// It must be the very secret the seal then uses, and the tag the commit's, for those random bytes only.
import { describe, expect, it } from 'vitest';
import { commitSealTag, commitTurn, sealSecretAhead } from '../../src/protocol';
import { messagesOf, rng, startedGame, T0, view } from './helpers';

describe('sealSecretAhead', () => {
  it("gives the secret the seal made with the same bytes uses, and its commit's tag; other bytes, another secret and tag", () => {
    const game = startedGame(41);
    const v = view(game);
    const r = rng(41);
    const bytes = () => ({ secret: r.bytes(32), nonce: r.bytes(24), entropy: r.bytes(32), coin: r.bytes(32) });
    const france = game.byPower.france;
    const random = bytes();
    const ahead = sealSecretAhead(france.me, v, random);
    expect(ahead).not.toBeNull();
    const t = commitTurn(france.me, game.gameId, v, france.power, [], random, { seq: 900, time: T0 + 500 });
    if (!t.ok) throw new Error(t.reason);
    expect(ahead!.secret).toBe(t.secret);
    const messages = messagesOf([...game.log, t.message.bytes]);
    expect(commitSealTag(messages, t.message.id)).toBe(ahead!.tag);
    const other = sealSecretAhead(france.me, v, bytes());
    expect(other!.secret).not.toBe(t.secret);
    expect(other!.tag).not.toBe(ahead!.tag);
    // Not a commit (the START): no tag.
    const start = [...messages.values()].find((m) => m.payload.type === 'start')!;
    expect(commitSealTag(messages, start.id)).toBeNull();
  });
});
