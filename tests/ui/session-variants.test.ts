// The new-game form's variant choice and the lobby's seat deal, checked against the registry and
// the protocol: every registry variant can be chosen from the form, the settings the form signs
// make a game the protocol accepts (lobby, not incompatible), and the seat deal the lobby offers
// is a START the protocol takes for that variant.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { createGame, createIdentity, escrowKeysOf, joinGame, reduceLog, rosterProblem, startGame, type Identity, type Player } from '../../src/protocol';
import { POWERS, VARIANTS, type Variant } from '../../src/rules';
import { gameSettings } from '../../src/ui/game/create';
import { dealProblem, defaultSeats, rosterOf } from '../../src/ui/lobby/roster';
import { seatLabel } from '../../src/ui/lobby/seat-label';
import { chosenVariant, defaultEndYear, PLAYER_COUNTS, RULE_SETS, ruleSetOf, seatClaim, variantsFor } from '../../src/ui/lobby/variants';

const identity = (): Identity => createIdentity(nacl.randomBytes(32), nacl.randomBytes(32));
const T = 1_700_000_000_000;

function formSettings(variant: Variant, assignment: 'lot' | 'choice', endYear: number | null = null) {
  return gameSettings({ variant: variant.id, assignment, rules: {}, movementHours: 0, retreatHours: 0, endYear, signaling: [] });
}

describe('choosing a variant', () => {
  it('reaches every registry variant from players count, rule set and split, and nothing else', () => {
    const offered = PLAYER_COUNTS.flatMap((n) => RULE_SETS.flatMap((r) => variantsFor(n, r)));
    expect(offered.map((v) => v.id).sort()).toEqual(VARIANTS.map((v) => v.id).sort());
    for (const n of PLAYER_COUNTS)
      for (const r of RULE_SETS)
        for (const v of variantsFor(n, r)) {
          expect(v.players).toBe(n);
          expect(v.seats.length).toBe(n);
          expect(ruleSetOf(v)).toBe(r);
          expect(chosenVariant(n, r, v.id)).toBe(v);
        }
  });

  it('offers both classic three-player splits and the 1914 three-player game with and without Italy', () => {
    expect(variantsFor(3, 'classic').map((v) => v.id)).toEqual(['three-players', 'three-players-russia']);
    expect(variantsFor(3, '1914').map((v) => v.id)).toEqual(['1914-three-players', '1914-three-players-no-italy']);
    expect(variantsFor(7, 'classic').map((v) => v.id)).toEqual(['standard']);
    expect(variantsFor(2, '1914').map((v) => v.id)).toEqual(['1914-two-players']);
  });

  it('falls back to the first split when the chosen one does not fit a new count or rule set', () => {
    expect(chosenVariant(3, 'classic', 'three-players-russia')?.id).toBe('three-players-russia');
    expect(chosenVariant(4, 'classic', 'three-players-russia')?.id).toBe('four-players');
    expect(chosenVariant(3, '1914', 'three-players-russia')?.id).toBe('1914-three-players');
  });

  it('describes every variant in both languages and names its seats', () => {
    for (const v of VARIANTS) {
      expect(v.description.es.length).toBeGreaterThan(10);
      expect(v.description.en.length).toBeGreaterThan(10);
      expect(v.description.es).not.toBe(v.description.en);
      for (const seat of v.seats) {
        expect(seat.powers).toContain(seatClaim(seat));
        expect(seatLabel(seat.powers, 'en').split(' + ').length).toBe(seat.powers.length);
      }
    }
    expect(seatLabel(['turkey', 'france'], 'es')).toBe('Francia + Turquía');
  });

  it('defaults the short game to six years after the variant starts', () => {
    expect(defaultEndYear(chosenVariant(7, 'classic')!)).toBe(1907);
    expect(defaultEndYear(chosenVariant(2, 'classic')!)).toBe(1920);
    expect(defaultEndYear(chosenVariant(7, '1914')!)).toBe(1910);
  });
});

describe('what the form signs, as the protocol sees it', () => {
  for (const v of VARIANTS) {
    it(`${v.id}: CREATE makes a lobby, and the lobby's seat deal is a START the protocol accepts`, () => {
      const creator = identity();
      const settings = formSettings(v, 'choice', defaultEndYear(v));
      const { gameId, message } = createGame(creator, nacl.randomBytes(16), settings, { seq: 0, time: T });
      const lobby = reduceLog(gameId, [message.bytes]);
      expect(lobby.status).toBe('lobby');
      expect(lobby.settings?.variant).toBe(v.id);
      expect(reduceLog(gameId, [createGame(creator, nacl.randomBytes(16), formSettings(v, 'lot'), { seq: 0, time: T }).message.bytes]).status).not.toBe(
        'incompatible',
      );

      // One player per seat; each claims a seat by naming one of its powers, the last one the seat's last power.
      const others = v.seats.slice(1).map(() => identity());
      const people = [creator, ...others];
      const joins = people.map((who, i) => {
        const seat = v.seats[i]!;
        const claim = i === people.length - 1 ? seat.powers.at(-1)! : seatClaim(seat);
        return joinGame(who, gameId, `P${i}`, claim, { seq: who === creator ? 1 : 0, time: T });
      });
      const joined = reduceLog(gameId, [message.bytes, ...joins.map((j) => j.bytes)]);
      expect(joined.players.length).toBe(people.length);
      const seats = defaultSeats(joined.players, v);
      v.seats.forEach((seat, i) => expect(seats[seat.id]).toBe(people[i]!.id));
      expect(dealProblem(seats, v, joined.players, creator.id)).toBeNull();
      const roster = rosterOf(seats, v, creator.id)!;
      for (const p of v.neutral) expect(roster[p]).toBe(creator.id);
      expect(rosterProblem(v, roster, creator.id)).toBeNull();

      const start = startGame(creator, gameId, roster, escrowKeysOf(joined.players), { seq: 2, time: T + 1 });
      const started = reduceLog(gameId, [message.bytes, ...joins.map((j) => j.bytes), start.bytes]);
      expect(started.status).toBe('starting');
      expect(started.roster).toEqual(roster);
      expect(started.ignored.filter((i) => i.id === start.id)).toEqual([]);
    });
  }

  it('will not start a split game with fewer players than seats, but lets the standard game double up', () => {
    const keys = ['a', 'b', 'c'].map((c) => c.repeat(64));
    const players: Player[] = keys.map((key) => ({ key, fingerprint: key.slice(0, 8), name: key[0]!, box: '00'.repeat(32), escrow: null, claim: null }));
    const four = chosenVariant(4, 'classic')!;
    expect(dealProblem(defaultSeats(players, four), four, players, keys[0]!)).toBe('two-seats');
    const standard = chosenVariant(7, 'classic')!;
    const seats = defaultSeats(players, standard);
    expect(dealProblem(seats, standard, players, keys[0]!)).toBeNull();
    expect(POWERS.every((p) => rosterOf(seats, standard, keys[0]!)![p] !== undefined)).toBe(true);
    expect(dealProblem({ ...seats, england: 'f'.repeat(64) }, standard, players, keys[0]!)).toBe('not-joined');
  });
});
