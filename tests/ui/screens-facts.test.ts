// Facts about people for the screens (src/ui/game/screens/facts.ts) on games played through the
// real protocol: the waiting line by player, this player last, draw votes counted by people,
// centres that changed hands, and press conversations between players.
import { describe, expect, it } from 'vitest';
import { STARTING_POSITION, adjudicate, type Position, type Power } from '../../src/rules';
import { centreChanges } from '../../src/ui/orders/CentreChanges';
import { drawPeople, people, playerNames, powersToReach, threads, waiting } from '../../src/ui/game/screens/facts';
import { joinList } from '../../src/ui/game/screens/logic';
import type { DecryptedChat } from '../../src/ui/game/session';
import { FakeWorld, HOUR, T0, THREE_PHONES, fakeSession, newPhoneState } from '../e2e/pages/screens/fake-world';

const ENGLAND = 1;
const FRANCE = 2;

describe('people', () => {
  it('lists each player once with the powers they hold', () => {
    const world = new FakeWorld(THREE_PHONES);
    const [ana, bruno, carmen] = world.phones;
    const ps = people(world.view(), carmen!.me.id);
    expect(ps.map((p) => [p.name, p.powers, p.me])).toEqual([
      ['Ana', ['austria', 'germany', 'italy', 'russia', 'turkey'], false],
      ['Bruno', ['england'], false],
      ['Carmen', ['france'], true],
    ]);
    expect(playerNames(world.view()).germany).toBe(ana!.name);
    expect(powersToReach(ps.filter((p) => p.key === bruno!.me.id))).toEqual(['england']);
  });
});

describe('the waiting line', () => {
  it('names the players still to seal and this player too, then says when this player is last', () => {
    const world = new FakeWorld(THREE_PHONES);
    const france = world.phones[FRANCE]!.me.id;
    // The bot (Ana) has sealed; England (Bruno) and France (me) have not.
    expect(waiting(world.view(), france)).toEqual({
      others: [{ key: world.phones[ENGLAND]!.me.id, name: 'Bruno', powers: ['england'] }],
      mine: ['france'],
      lastIsMe: false,
    });
    const t = T0 + HOUR;
    world.commit(ENGLAND, 'england', [], t);
    world.append(null, t);
    expect(waiting(world.view(), france)).toEqual({ others: [], mine: ['france'], lastIsMe: true });
    // England's phone, which has sealed, waits only for France's player.
    expect(waiting(world.view(), world.phones[ENGLAND]!.me.id)).toEqual({
      others: [{ key: france, name: 'Carmen', powers: ['france'] }],
      mine: [],
      lastIsMe: false,
    });
    expect(joinList(['A', 'B', 'C'], 'and')).toBe('A, B and C');
  });
});

describe('draw votes by people', () => {
  it("counts three voters in a three-player game, shows nothing of the open phase's votes, then the opened tally by people", async () => {
    const world = new FakeWorld({ ...THREE_PHONES, bots: [0, 1] }, [0, 1, 2]);
    const me = world.phones[FRANCE]!.me.id;
    const before = drawPeople(world.view(), me);
    expect(before.voters.map((p) => p.name)).toEqual(['Ana', 'Bruno', 'Carmen']);
    expect(before.last).toBeUndefined();
    // The bots re-seal with a yes: sealed, so nothing of it shows while the phase is open.
    world.botsVoteDraw(T0 + HOUR);
    expect(drawPeople(world.view(), me)).toEqual(before);
    const session = fakeSession(world, FRANCE, newPhoneState(), T0 + HOUR, () => {});
    await session.voteDraw(false);
    // Every vote open with the orders: the two bots said yes (Ana for all five of her powers), this player no.
    expect(world.view().phases).toHaveLength(1);
    const done = drawPeople(world.view(), me);
    expect(done.last?.of).toBe(3);
    expect(done.last?.yes.map((p) => p.name)).toEqual(['Ana', 'Bruno']);
    expect(done.last?.yes[0]!.powers).toHaveLength(5);
  });
});

describe('centres that changed hands', () => {
  it('lists each centre whose owner differs, with the old and new owner', () => {
    const spring = adjudicate(STARTING_POSITION, [{ kind: 'move', power: 'austria', unit: { type: 'A', loc: 'bud' }, to: 'ser' }]).next;
    const fall = adjudicate(spring, []);
    const after: Position = fall.next;
    expect(centreChanges(spring, after)).toEqual([{ province: 'ser', to: 'austria' }]);
    const taken: Position = { ...after, centres: { ...after.centres, vie: 'russia' } };
    expect(centreChanges(after, taken)).toEqual([{ province: 'vie', from: 'austria', to: 'russia' }]);
  });
});

describe('press conversations', () => {
  it('groups messages by the players they went between, whatever powers those hold', () => {
    const world = new FakeWorld(THREE_PHONES);
    const [ana, bruno, carmen] = world.phones.map((p) => p!.me.id);
    const chat = (id: string, from: string, time: number, to: DecryptedChat['to'], fromPower?: Power, text: string | null = id): DecryptedChat => ({
      id,
      from,
      time,
      text,
      to,
      ...(fromPower ? { fromPower } : {}),
    });
    // Ana holds five powers: what she sends as Austria or as Italy, and what Carmen sends to her
    // Turkey or her Russia, is one conversation with one person.
    const chats = [
      chat('a', bruno!, 1, ['france'], 'england'),
      chat('b', carmen!, 2, ['england'], 'france'),
      chat('c', ana!, 3, ['france'], 'austria'),
      chat('d', bruno!, 4, 'all', 'england'),
      chat('e', ana!, 5, ['france'], 'italy'),
      chat('f', carmen!, 6, ['turkey'], 'france'),
      chat('g', carmen!, 7, ['russia'], 'france'),
      // Not for Carmen: its recipients are sealed inside it (v2), so it joins no conversation.
      chat('h', ana!, 0, [], 'austria', null),
    ];
    const list = threads(world.view(), chats, carmen!);
    expect(list.map((t) => [t.id, t.chats.map((c) => c.id)])).toEqual([
      [ana!, ['c', 'e', 'f', 'g']],
      ['all', ['d']],
      [bruno!, ['a', 'b']],
    ]);
    const withAna = list.find((t) => t.id === ana)!;
    expect(withAna.with !== 'all' && withAna.with.map((p) => p.powers.length)).toEqual([5]);
  });
});
