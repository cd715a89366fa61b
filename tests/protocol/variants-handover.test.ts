// Civil disorder hand-over (seed 000 XV.4, seed 002 "Desorden civil"): a replacement takes an
// absent player's power when a majority of the other players sign it.
import { describe, expect, it } from 'vitest';
import type { Power } from '../../src/rules';
import { acknowledge, handOver } from '../../src/protocol';
import { T0 } from './helpers';
import { holderOf, playVariantPhase, startedVariant, vview, type VariantGame } from './variants-helpers';

const SEATS = ['austria-france', 'germany-turkey', 'italy-russia'];

function absentEngland(seed: number): VariantGame {
  const game = startedVariant('four-players', seed, {}, 1);
  // England's player is gone: the others time England out and it holds (civil disorder).
  playVariantPhase(game, {}, T0 + 100, { absent: ['england'] });
  return game;
}

function vote(game: VariantGame, seat: string, power: Power, to: string, time: number) {
  const v = vview(game);
  const ph = game.phones.get(seat)!;
  // A key that never joined has no escrow key: the cheater names its own.
  const escrow = v.players.find((p) => p.key === to)?.escrow ?? ph.me.escrowPublicKey;
  const msg = handOver(ph.me, game.gameId, v.current!.key, power, to, escrow, v.start!, ph.stamp(time));
  game.log.push(msg.bytes);
  return msg;
}

describe('hand-over of a power in civil disorder', () => {
  it('needs more than half of the other players: one of three is not enough, two are', () => {
    const game = absentEngland(61);
    const spare = game.phones.get('spare-0')!;
    let v = vview(game);
    expect(v.phases[0]!.civilDisorder).toEqual(['england']);
    vote(game, SEATS[0]!, 'england', spare.me.id, T0 + 150);
    v = playVariantPhase(game, {}, T0 + 200, { absent: ['england'] });
    expect(v.holders!.england).toBe(game.phones.get('england')!.me.id);

    vote(game, SEATS[0]!, 'england', spare.me.id, T0 + 250);
    vote(game, SEATS[1]!, 'england', spare.me.id, T0 + 250);
    // The quorum takes effect from the next phase; this one still closes with England in disorder.
    v = playVariantPhase(game, {}, T0 + 300, { absent: ['england'] });
    expect(v.holders!.england).toBe(spare.me.id);
  });

  it('lets the new player order the power from then on, and no longer the old key', () => {
    const game = absentEngland(62);
    const spare = game.phones.get('spare-0')!;
    const old = game.phones.get('england')!;
    vote(game, SEATS[1]!, 'england', spare.me.id, T0 + 150);
    vote(game, SEATS[2]!, 'england', spare.me.id, T0 + 150);
    let v = playVariantPhase(game, {}, T0 + 200, { absent: ['england'] });
    expect(v.holders!.england).toBe(spare.me.id);
    const stale = old.commit(game.gameId, v, 'england', [], T0 + 210);
    game.log.push(stale.bytes);
    v = vview(game);
    expect(v.ignored).toContainEqual({ id: stale.id, reason: 'not-your-power' });
    expect(holderOf(game, v, 'england')).toBe(spare);
    v = playVariantPhase(game, { england: [{ kind: 'move', power: 'england', unit: { type: 'F', loc: 'lon' }, to: 'nth' }] }, T0 + 300);
    expect(v.phases.at(-1)!.civilDisorder).toEqual([]);
    expect(v.position!.units.find((u) => u.loc === 'nth')?.power).toBe('england');
    // The new holder's acknowledgements count like any player's.
    const ack = acknowledge(spare.me, game.gameId, v.phases.at(-1)!.key, '0'.repeat(32), spare.stamp(T0 + 400));
    game.log.push(ack.bytes);
    expect(vview(game).hashMismatches.map((m) => m.author)).toEqual([spare.me.id]);
  });

  it("ignores votes by non-players, by the power's own holder, and to a key that never joined", () => {
    const game = absentEngland(63);
    const spare = game.phones.get('spare-0')!;
    const bySpare = vote(game, 'spare-0', 'england', spare.me.id, T0 + 150);
    const byHolder = vote(game, SEATS[0]!, 'austria', spare.me.id, T0 + 150);
    const toStranger = vote(game, SEATS[1]!, 'england', 'ab'.repeat(32), T0 + 150);
    const v = playVariantPhase(game, {}, T0 + 200, { absent: ['england'] });
    expect(v.ignored).toContainEqual({ id: bySpare.id, reason: 'handover-by-non-player' });
    expect(v.ignored).toContainEqual({ id: byHolder.id, reason: 'handover-by-holder' });
    expect(v.ignored).toContainEqual({ id: toStranger.id, reason: 'handover-to-invalid-key' });
    expect(v.holders!.england).toBe(game.phones.get('england')!.me.id);
  });
});
