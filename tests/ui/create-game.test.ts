// A new game made by the plumbing (src/ui/game/create.ts), as the new-game form asks for it: the
// record keeps the room password, the game's network and the table flag; the signed CREATE and the
// creator's JOIN are admitted and stored before any screen opens the game, so opening it shows the
// lobby with the creator in it. An accepted invite keeps the invite's secrets and nothing else.
import { describe, expect, it } from 'vitest';
import { acceptInvite, createNewGame } from '../../src/ui/game/create';
import { asAppRecord } from '../../src/ui/game/records';
import { device as newDevice, openPhone } from './phones';

const clock = 1_700_000_000_000;

const options = {
  name: 'Ana',
  seats: 7,
  assignment: 'choice' as const,
  claim: 'france' as const,
  variant: 'standard',
  rules: {},
  movementHours: 0,
  retreatHours: 0,
  endYear: null,
  signaling: [],
};

describe('creating a game on this device', () => {
  it('stores the record and the signed CREATE and JOIN; the game opens in its lobby', async () => {
    const d = await newDevice('create', clock);
    const gameId = await createNewGame(d, { ...options, relays: ['wss://r.example/relay'], iceServers: [{ urls: ['stun:127.0.0.1:3478'] }], table: true });
    const record = asAppRecord(await d.store.getGame(gameId))!;
    expect(record.password).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(record.relays).toEqual(['wss://r.example/relay']);
    expect(record.iceServers).toEqual([{ urls: ['stun:127.0.0.1:3478'] }]);
    expect(record.table).toBe(true);
    expect(record.nextSeq).toBe(2);
    const phone = await openPhone(d, gameId, () => clock);
    const view = phone.runner.view;
    expect(view.status).toBe('lobby');
    expect(view.creator).toBe(phone.runner.current.me.key);
    expect(view.players.map((p) => [p.name, p.claim])).toEqual([['Ana', 'france']]);
    phone.runner.close();
  });

  it('a game not made for the table has no table flag, and each game its own password', async () => {
    const d = await newDevice('create2', clock);
    const a = asAppRecord(await d.store.getGame(await createNewGame(d, options)))!;
    const b = asAppRecord(await d.store.getGame(await createNewGame(d, options)))!;
    expect(a.table).toBeUndefined();
    expect(a.id).not.toBe(b.id);
    expect(a.password).not.toBe(b.password);
  });

  it('an accepted invite keeps its secrets and network, and a second one changes nothing', async () => {
    const d = await newDevice('invite', clock);
    const invite = { gameId: 'game-id-0123456789', password: 'abcdefghijklmnopqrstuv', signaling: ['wss://s.example/'], relays: ['wss://r.example/relay'] };
    expect(await acceptInvite(d, invite, clock)).toBe(invite.gameId);
    const record = asAppRecord(await d.store.getGame(invite.gameId))!;
    expect([record.password, record.signaling, record.relays, record.table]).toEqual([invite.password, invite.signaling, invite.relays, undefined]);
    await acceptInvite(d, { ...invite, password: 'zzzzzzzzzzzzzzzzzzzzzz' }, clock + 1);
    expect(asAppRecord(await d.store.getGame(invite.gameId))!.password).toBe(invite.password);
  });
});
