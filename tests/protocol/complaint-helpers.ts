// Shared setups for the version 6 REVEAL complaint tests (reveal-complaint and
// reveal-complaint-attacks): a commit with spoiled escrow shares, a payload re-signed, and the
// equivocated-FINALs game in which one key locks having seen only the first FINAL.
import { expect } from 'vitest';
import { escrowHolders, finalOrders, messageId, signMessage, type GameView, type PayloadBody } from '../../src/protocol';
import { escrowPublic, pointFromText, pointText } from '../../src/protocol/escrow';
import type { Power } from '../../src/rules';
import { payloadOf, T0, view, type Game, type Phone } from './helpers';

export /** `cheat`'s commit like an honest one but with `victims`' S_i moved by G (or changed by `edit`), re-signed. */
function spoiledCommit(
  game: Game,
  v: GameView,
  cheat: Phone,
  victims: readonly Phone[],
  time: number,
  edit?: (escrow: Record<string, any>) => Record<string, any>,
): Uint8Array {
  const honest = cheat.commit(game.gameId, v, [], time);
  const p = payloadOf(honest.bytes);
  const holders = escrowHolders(v.current!.ballotKeys, cheat.me.id);
  const c = [...p.escrow.c];
  for (const victim of victims) {
    const i = holders.indexOf(victim.me.id);
    c[i] = pointText(pointFromText(c[i])!.add(pointFromText(escrowPublic(1n))!));
  }
  const escrow = edit === undefined ? { ...p.escrow, c } : edit({ ...p.escrow, c });
  return resign(cheat.me, { ...p, escrow });
}

export /** A payload (as payloadOf reads it) signed again by `me`, its `v` and `from` set by the signer. */
function resign(me: Phone['me'], payload: Record<string, unknown>): Uint8Array {
  const { v: _v, from: _f, ...body } = payload;
  return signMessage(me, body as unknown as PayloadBody);
}

export const reasonOf = (v: GameView, id: string) => v.ignored.find((x) => x.id === id)?.reason;

/**
 * Turkey signs commits A and B (B spoiled for `spoiledFor`, default France, or changed by `edit`)
 * and FINALs of both; `blind` (default France) locks having seen FINAL A only, every other key
 * after FINAL B. Nobody has revealed yet.
 */
export function equivocatedFinals(game: Game, opts: { spoiledFor?: Power[]; blind?: Power; edit?: (e: Record<string, any>) => Record<string, any> } = {}) {
  const v0 = view(game);
  const key = v0.current!.key;
  const turkey = game.byPower.turkey;
  const blind = game.byPower[opts.blind ?? 'france'];
  for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
  const a = turkey.commits.get(key)!.at(-1)!;
  const bBytes = spoiledCommit(
    game,
    v0,
    turkey,
    (opts.spoiledFor ?? ['france']).map((p) => game.byPower[p]),
    T0 + 101,
    opts.edit,
  );
  const b = messageId(bBytes);
  game.log.push(bBytes);
  expect(reasonOf(view(game), b), 'B is admitted').toBeUndefined();
  const v1 = view(game);
  for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.final(game.gameId, v1, T0 + 102).bytes);
  game.log.push(finalOrders(turkey.me, game.gameId, key, 'turkey', a, { seq: 51, time: T0 + 102 }).bytes);
  game.log.push(blind.lock(game.gameId, view(game), game.log, T0 + 103).bytes);
  game.log.push(finalOrders(turkey.me, game.gameId, key, 'turkey', b, { seq: 50, time: T0 + 102 }).bytes);
  for (const ph of game.phones) if (ph !== blind) game.log.push(ph.lock(game.gameId, view(game), game.log, T0 + 104).bytes);
  return { game, key, turkey, blind, a, b };
}
