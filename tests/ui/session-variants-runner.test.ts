// The game plumbing with variants, in Node (each phone its own fake IndexedDB and Y.Doc, wired
// like peers): a "1914" game refuses to seal while a unit lacks an order, in the player's
// language, and signs nothing; the creator never plays a neutral power; a two-player game dealt by
// lot seals the coin with the Fall orders of the toss year, and Italy goes to a side.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net';
import { openLog } from '../../src/protocol';
import { formatUnit, type Order, type Power } from '../../src/rules';
import { MissingOrdersError } from '../../src/ui/game/runner';
import type { Lang } from '../../src/ui/i18n';
import { acceptInvite, createNewGame } from '../../src/ui/game/create';
import { dealProblem, defaultSeats, rosterOf } from '../../src/ui/lobby/roster';
import { variantFor } from '../../src/ui/lobby/variants';
import { device as newDevice, openPhone, settle, wire, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const device = (name: string) => newDevice(`v-${name}`, clock);
const open = (d: Phone['device'], gameId: string, lang: Lang) => openPhone(d, gameId, now, lang);

async function game(variant: string, players: number, assignment: 'choice' | 'lot', claim: Power | null, lang: Lang = 'es') {
  const devices = await Promise.all(Array.from({ length: players }, (_, i) => device(String(i))));
  const gameId = await createNewGame(
    devices[0]!,
    { name: 'P0', seats: players, assignment, claim, variant, rules: {}, movementHours: 0, retreatHours: 0, endYear: null, signaling: [] },
    nacl.randomBytes,
    clock,
  );
  const record = (await devices[0]!.store.getGame(gameId))!;
  for (const d of devices.slice(1)) await acceptInvite(d, { gameId, password: record.password as string, signaling: [] }, clock);
  const phones: Phone[] = [];
  for (const d of devices) phones.push(await open(d, gameId, lang));
  wire(phones);
  await settle(phones);
  return { gameId, phones };
}

const hold = (power: Power, type: 'A' | 'F', loc: string): Order => ({ kind: 'hold', power, unit: { type, loc } });

function holdAll(phone: Phone, power: Power): Order[] {
  const units = phone.runner.view.current?.position.units ?? [];
  return units.filter((u) => u.power === power).map((u) => hold(power, u.type, u.loc));
}

const commitsIn = (p: Phone) => openLog(p.runner.gameId, readLog(p.doc)).filter((m) => m.ok && m.message.payload.type === 'commit').length;

describe('variants through the game plumbing', () => {
  it('1914, three players without Italy: seats by claim, Italy nobody’s, every unit must be ordered', async () => {
    const { phones } = await game('1914-three-players-no-italy', 3, 'choice', 'austria');
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await b.runner.join('P1', 'germany');
    await c.runner.join('P2', 'france');
    await settle(phones);
    const variant = variantFor('1914-three-players-no-italy');
    const view = a.runner.view;
    const seats = defaultSeats(view.players, variant);
    expect(dealProblem(seats, variant, view.players, view.creator!)).toBeNull();
    await a.runner.start(rosterOf(seats, variant, view.creator!)!);
    await settle(phones);
    for (const p of phones) expect(p.runner.view.status).toBe('playing');
    expect(a.runner.view.current?.key).toBe('1904-spring-movement');
    // The creator's key stands in for neutral Italy in the roster, but nobody plays it.
    expect(a.runner.view.roster?.italy).toBe(a.device.identity.id);
    expect(a.runner.current.me.powers).toEqual(['austria', 'russia']);
    expect(b.runner.current.me.powers).toEqual(['england', 'germany']);
    expect(c.runner.current.me.powers).toEqual(['france', 'turkey']);

    const before = commitsIn(a);
    const partial = holdAll(a, 'austria').slice(1);
    const refusal = await a.runner.seal('austria', partial).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(MissingOrdersError);
    const missing = holdAll(a, 'austria')[0]!;
    expect((refusal as MissingOrdersError).missing).toEqual(['unit' in missing ? missing.unit.loc : '']);
    expect((refusal as Error).message).toMatch(/«1914»/);
    expect((refusal as Error).message.endsWith(`Sin orden: ${formatUnit('unit' in missing ? missing.unit : { type: 'A', loc: '' }, 'es')}`)).toBe(true);
    await settle(phones);
    expect(commitsIn(a)).toBe(before);
    expect(a.runner.current.sealed.austria).toBeUndefined();

    await a.runner.seal('austria', holdAll(a, 'austria'));
    await settle(phones);
    expect(commitsIn(a)).toBe(before + 1);
    expect(a.runner.current.sealed.austria?.length).toBe(holdAll(a, 'austria').length);
  });

  it('two players by lot: whole seats are dealt, and the Fall 1914 seal carries the coin that gives Italy away', async () => {
    const { phones } = await game('two-players', 2, 'lot', null, 'en');
    const [a, b] = phones as [Phone, Phone];
    await b.runner.join('P1', null);
    await settle(phones);
    await a.runner.startLot(a.runner.view.players.map((p) => p.key));
    await settle(phones);
    for (const p of phones) {
      expect(p.runner.view.status).toBe('playing');
      expect(p.runner.view.misconduct).toEqual([]);
    }
    const held = phones.map((p) => p.runner.current.me.powers.join(',')).sort();
    expect(held).toEqual(['austria,germany,turkey', 'england,france,russia']);
    expect(a.runner.view.current?.key).toBe('1914-spring-movement');
    for (const phase of ['1914-spring-movement', '1914-fall-movement']) {
      expect(a.runner.view.current?.key).toBe(phase);
      for (const p of phones) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
      await settle(phones);
    }
    const toss = a.runner.view.toss;
    expect(toss?.phase).toBe('1914-fall-movement');
    expect(toss?.revealed.length).toBe(2);
    expect(['austria-germany-turkey', 'england-france-russia']).toContain(toss?.winner);
    // From Spring 1915 the winning side's phone plays Italy too.
    const winner = phones.find((p) => p.runner.current.me.powers.filter((x) => x !== 'italy').join('-') === toss!.winner)!;
    while (a.runner.view.current !== undefined && a.runner.view.current.key !== '1915-spring-movement') {
      const c = a.runner.view.current;
      for (const p of phones) for (const power of p.runner.current.me.powers) if (c.required.includes(power)) await p.runner.seal(power, []);
      await settle(phones);
      if (a.runner.view.current?.key === c.key) break;
    }
    expect(a.runner.view.current?.key).toBe('1915-spring-movement');
    expect(winner.runner.current.me.powers).toContain('italy');
    expect(phones.filter((p) => p.runner.current.me.powers.includes('italy')).length).toBe(1);
  });
});
