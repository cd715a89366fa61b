// The game plumbing in Node: three phones (each its own fake IndexedDB and Y.Doc, docs wired to
// each other like peers) create, join, start, seal and see the phase resolve; every phone takes the
// automatic steps (FINAL, LOCK, REVEAL) and acknowledges on its own; a reload keeps sealed orders and
// secrets; chat opens only for recipients.
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net';
import { ackCarriedByLock, messageId, openLog, signMessage, SIGNATURE_BYTES, type Identity } from '../../src/protocol';
import { namesAuthorByPlace } from '../../src/protocol/codec';
import { POWERS, type Order, type Power } from '../../src/rules';
import { defaultRoster, isComplete } from '../../src/ui/lobby/roster';
import { openPhone, settle, threeDevices, wire, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const open = (d: Phone['device'], gameId: string) => openPhone(d, gameId, now);

const move = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });

async function threePlayerGame(assignment: 'choice' | 'lot' = 'choice') {
  const {
    gameId,
    devices: [da, db, dc],
  } = await threeDevices(clock, assignment);
  const phones = [await open(da, gameId), await open(db, gameId), await open(dc, gameId)];
  wire(phones);
  await settle(phones);
  return { gameId, phones };
}

/** Bea takes Germany and Carl Russia (phones[1] and [2]; Ana, phones[0], holds France). */
async function seat(phones: Phone[]): Promise<void> {
  await phones[1]!.runner.join('Bea', 'germany');
  await phones[2]!.runner.join('Carl', 'russia');
  await settle(phones);
}

/** Ana starts the game with the default roster, and every phone catches up. */
async function start(phones: Phone[]): Promise<void> {
  const a = phones[0]!.runner;
  const roster = defaultRoster(a.view.players);
  if (!isComplete(roster, a.view.players)) throw new Error('incomplete roster');
  await a.start(roster);
  await settle(phones);
}

describe('game session plumbing (three phones, no network)', () => {
  it('creates, joins, starts, seals, reveals by itself, resolves and acknowledges', async () => {
    const { phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    expect(b.runner.view.status).toBe('lobby');
    expect(b.runner.view.players.map((p) => p.name)).toEqual(['Ana']);
    await b.runner.join('Bea', 'germany');
    await c.runner.join('Carl', 'russia');
    await settle(phones);
    const view = a.runner.view;
    expect(view.players.map((p) => p.name).sort()).toEqual(['Ana', 'Bea', 'Carl']);
    const roster = defaultRoster(view.players);
    expect(isComplete(roster, view.players)).toBe(true);
    if (!isComplete(roster, view.players)) return;
    expect(roster.france).toBe(a.device.identity.id);
    expect(roster.germany).toBe(b.device.identity.id);
    expect(roster.russia).toBe(c.device.identity.id);
    await a.runner.start(roster);
    await settle(phones);
    // b and c accepted the START on their own.
    for (const p of phones) expect(p.runner.view.status).toBe('playing');
    const held = phones.map((p) => p.runner.current.me.powers.length);
    expect(held.reduce((x, y) => x + y, 0)).toBe(POWERS.length);

    // Everyone seals: France and Germany bounce in Burgundy; other powers hold (empty orders).
    for (const p of phones) {
      for (const power of p.runner.current.me.powers) {
        const orders = power === 'france' ? [move('france', 'A', 'par', 'bur')] : power === 'germany' ? [move('germany', 'A', 'mun', 'bur')] : [];
        await p.runner.seal(power, orders);
      }
    }
    await settle(phones);
    for (const p of phones) {
      expect(p.runner.view.phases.length).toBe(1);
      expect(p.runner.view.current?.key).toBe('1901-fall-movement');
    }
    const results = a.runner.view.phases[0]!.results;
    const par = results.find((r) => r.order.kind === 'move' && r.order.unit.loc === 'par')!;
    expect(par.success).toBe(false);
    // Protocol 5: each phone's ACK of the phase rides in its LOCK of the next one, so none is
    // signed on its own while that LOCK is owed.
    const acks = () =>
      openLog(a.runner.gameId, readLog(a.doc)).filter((m) => m.ok && m.message.payload.type === 'ack' && m.message.payload.phase === '1901-spring-movement');
    expect(acks().length).toBe(0);
    for (const p of phones) expect(ackCarriedByLock(p.runner.view, p.device.identity.id)).toBe('1901-spring-movement');
    // The home screen's record knows the phase and what is owed.
    const rec = await b.device.store.getGame(a.runner.gameId);
    expect(rec?.lastPhase).toBe('1901-fall-movement');
    expect(rec?.owes).toEqual(b.runner.current.me.powers);
    // Everyone seals the next phase: every phone acknowledged the first phase's state hash (in its
    // LOCK), still with no ACK entry of it, and nobody disagrees.
    for (const p of phones) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    expect(a.runner.view.phases.length).toBe(2);
    expect(a.runner.view.acked['1901-spring-movement']).toEqual(phones.map((p) => p.device.identity.id).sort());
    expect(acks().length).toBe(0);
    expect(a.runner.view.hashMismatches).toEqual([]);
    // Protocol 6: after the START the app writes its entries compact (the author by its place in
    // the START's key list), and every phone reads them.
    const played = readLog(a.doc).filter((b) => {
      const o = openLog(a.runner.gameId, [b])[0];
      return o?.ok !== true || !['create', 'join', 'start'].includes(o.message.payload.type);
    });
    expect(played.length).toBeGreaterThan(0);
    expect(played.every((b) => namesAuthorByPlace(b.subarray(SIGNATURE_BYTES)))).toBe(true);
  });

  it('draw votes travel sealed with the orders: nothing opens until all have sealed; then the game is drawn', async () => {
    const { phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    await start(phones);
    await a.runner.voteDraw(true);
    await b.runner.voteDraw(true);
    await settle(phones);
    const half = c.runner.view.current!;
    // The votes are seals: c sees that a's and b's powers sealed, and nothing else.
    expect(half.committed.length).toBe(a.runner.current.me.powers.length + b.runner.current.me.powers.length);
    expect(half.finalized).toEqual([]);
    expect(openLog(a.runner.gameId, readLog(a.doc)).some((m) => m.ok && (m.message.payload.type === 'reveal' || m.message.payload.type === 'lock'))).toBe(
      false,
    );
    expect(a.runner.current.drawVotes).toEqual(Object.fromEntries(a.runner.current.me.powers.map((p) => [p, true])));
    await c.runner.voteDraw(true);
    await settle(phones);
    for (const p of phones) expect(p.runner.view.result).toMatchObject({ kind: 'draw', winners: [...POWERS] });
  });

  it('keeps sealed orders and their keys across a reload, and re-seals before the reveal', async () => {
    const { gameId, phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    await start(phones);
    await b.runner.seal('germany', [move('germany', 'A', 'mun', 'bur')]);
    await b.runner.seal('germany', [move('germany', 'A', 'mun', 'ruh')]);
    await b.runner.saveDraft('germany', [move('germany', 'A', 'mun', 'tyr')]);
    await settle(phones);
    // b reloads: a fresh runner on the same store.
    b.runner.close();
    const b2 = await open(b.device, gameId);
    await b2.runner.idle();
    expect(b2.runner.current.sealed.germany).toEqual([move('germany', 'A', 'mun', 'ruh')]);
    expect(b2.runner.current.drafts.germany).toEqual([move('germany', 'A', 'mun', 'tyr')]);
    // The reloaded phone still reveals when everyone has sealed.
    const all = [a, b2, c];
    wire(all);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    for (const power of b2.runner.current.me.powers.filter((p) => p !== 'germany')) await b2.runner.seal(power, []);
    await settle(all);
    const used = a.runner.view.phases[0]?.orders.germany;
    // The earliest commit the others locked is the re-sealed one (Ruhr), never the draft.
    expect(used).toEqual([move('germany', 'A', 'mun', 'ruh')]);
    // The next phase starts with nothing sealed, and a power not held cannot be sealed.
    expect(b2.runner.current.sealed).toEqual({});
    await expect(b2.runner.seal('france', [])).rejects.toThrow(/does not hold/);
  });

  it('signs a seal once: one signature, one commit appended, its secret kept', async () => {
    const { gameId, phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    await start(phones);
    // Bea's phone reopened with an identity that counts every use of its signing key.
    b.runner.close();
    const id = b.device.identity;
    let signatures = 0;
    const counted: Identity = {
      ...id,
      get signSecretKey() {
        signatures++;
        return id.signSecretKey;
      },
    };
    const b2 = await open({ ...b.device, identity: counted }, gameId);
    const all = [a, b2, c];
    wire(all);
    await settle(all);
    const mine = () =>
      openLog(gameId, readLog(b2.doc)).flatMap((m) => {
        return m.ok && m.message.payload.from === id.id ? [m.message] : [];
      });
    const before = mine().length;
    signatures = 0;
    await b2.runner.seal('germany', [move('germany', 'A', 'mun', 'ruh')]);
    expect(signatures).toBe(1);
    const appended = mine().slice(before);
    expect(appended.map((m) => m.payload.type)).toEqual(['commit']);
    const record = await b.device.store.getDraft({ gameId, phase: b2.runner.view.current!.key, power: 'germany' });
    // Secrets kept ahead of a seal (burst: drafts keepAhead, named escrow:<tag>) by this tab or by
    // the one closed before it may stay beside it; the commit's own is kept under its id.
    expect(record?.seals?.filter((s) => !s.hash.startsWith('escrow:')).map((s) => s.hash)).toEqual([appended[0]!.id]);
  });

  it('opens press only for its recipients and counts unread messages', async () => {
    const { phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    await start(phones);
    await a.runner.sendChat(['germany'], 'Burgundy is yours');
    await settle(phones);
    expect(b.runner.current.chats.map((m) => m.text)).toEqual(['Burgundy is yours']);
    expect(a.runner.current.me.powers).toContain(b.runner.current.chats[0]?.fromPower);
    expect(b.runner.current.chats[0]?.to).toEqual(b.runner.current.me.powers);
    expect(c.runner.current.chats.map((m) => m.text)).toEqual([null]);
    expect(c.runner.current.chats[0]?.to).toEqual([]);
    expect(b.runner.current.unread).toBe(1);
    b.runner.markChatsRead();
    await settle(phones);
    expect(b.runner.current.unread).toBe(0);
  });

  it('draws powers by lot: the START names who draws, then every phone seals, locks and opens its value by itself', async () => {
    const { phones } = await threePlayerGame('lot');
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await b.runner.join('Bea', null);
    await c.runner.join('Carl', null);
    await settle(phones);
    await a.runner.startLot(a.runner.view.players.map((p) => p.key));
    await settle(phones);
    const roster = a.runner.view.roster;
    expect(roster).toBeDefined();
    for (const p of phones) {
      expect(p.runner.view.status).toBe('playing');
      expect(p.runner.view.roster).toEqual(roster);
      expect(p.runner.view.lot?.order).toHaveLength(3);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    // Seven powers over three players: 3, 2, 2.
    expect(phones.map((p) => p.runner.current.me.powers.length).sort()).toEqual([2, 2, 3]);
  });

  it('a player whose JOINs name no usable escrow key is refused from the roster before the START is reserved: the creator starts without it', async () => {
    const { gameId, phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    // Bea's phone (a cheater's, say) signs a second JOIN with another escrow key: her JOINs disagree.
    const bea = b.device.identity;
    const other = signMessage(bea, {
      type: 'join',
      game: gameId,
      seq: 900,
      time: clock,
      name: 'Bea',
      box: bea.boxPublicKey,
      escrow: a.device.identity.escrowPublicKey,
      power: 'germany',
    });
    await b.replica.publish([other]);
    await settle(phones);
    expect(a.runner.view.players.find((p) => p.key === bea.id)?.escrow).toBeNull();
    const withBea = defaultRoster(a.runner.view.players) as Record<Power, string>;
    await expect(a.runner.start(withBea)).rejects.toThrow(/no usable escrow key/);
    // Without Bea (her powers to Ana and Carl) the START goes out: the refusal cost nothing.
    const withoutBea = Object.fromEntries(POWERS.map((p, i) => [p, i % 2 === 0 ? a.device.identity.id : c.device.identity.id])) as Record<Power, string>;
    await a.runner.start(withoutBea);
    await settle(phones);
    expect(a.runner.view.status).toBe('playing');
    expect(c.runner.view.status).toBe('playing');
  });

  it('a START pinning another escrow key for this phone is not accepted, and that costs it nothing: it still accepts the START it chooses', async () => {
    const { gameId, phones } = await threePlayerGame();
    const [a, b] = phones as [Phone, Phone, Phone];
    await seat(phones);
    const [ana, bea] = [a.device.identity, b.device.identity];
    // Bea's JOINs name two escrow keys (her own and, in a second JOIN, another), and Ana's START
    // pins the other one for her: a START the lobby counts, which Bea's phone must not accept.
    const fake = ana.escrowPublicKey;
    await b.replica.publish([
      signMessage(bea, { type: 'join', game: gameId, seq: 900, time: clock, name: 'Bea', box: bea.boxPublicKey, escrow: fake, power: 'germany' }),
    ]);
    await settle(phones);
    const roster = defaultRoster(a.runner.view.players) as Record<Power, string>;
    const pins = Object.fromEntries(a.runner.view.players.map((p) => [p.key, p.key === bea.id ? fake : p.escrow!]));
    const start = (seq: number, escrow: Record<string, string>) =>
      signMessage(ana, { type: 'start', game: gameId, seq, time: clock, roster, participants: [], escrow });
    const bad = start(900, pins);
    await a.replica.publish([bad]);
    await settle(phones);
    expect(b.runner.view.starts).toHaveLength(1);
    expect(b.runner.view.acceptances[bea.id]).toBeUndefined();
    // Ana signs a second START pinning Bea's own key; Bea, shown the fork, chooses it.
    const good = start(901, { ...pins, [bea.id]: bea.escrowPublicKey });
    await a.replica.publish([good]);
    await settle(phones);
    expect(b.runner.view.status).toBe('forked');
    await expect(b.runner.chooseStart(messageId(bad))).rejects.toThrow(/another escrow key/);
    await b.runner.chooseStart(messageId(good));
    await settle(phones);
    expect(b.runner.view.acceptances[bea.id]).toBe(messageId(good));
  });

  it('runs one game in two tabs of one phone without signing two messages with one number', async () => {
    const { gameId, phones } = await threePlayerGame();
    const [a, b, c] = phones as [Phone, Phone, Phone];
    await seat(phones);
    // A second tab of Bea's phone: same store and identity, its own doc and runner.
    const b2 = await open(b.device, gameId);
    const all = [a, b, c, b2];
    wire(all);
    await settle(all);
    await start(all);
    // Both tabs accept, finalize, lock, reveal and acknowledge on their own, at the same moments:
    // the once-only steps are reserved in the store, so only one tab signs each.
    for (const p of [a, b, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(all);
    expect(a.runner.view.phases.length).toBe(1);
    expect(a.runner.view.misconduct).toEqual([]);
    const seqs = openLog(gameId, readLog(a.doc)).flatMap((m) => (m.ok && m.message.payload.from === b.device.identity.id ? [m.message.payload.seq] : []));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
