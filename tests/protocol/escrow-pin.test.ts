// Escrow keys are pinned before a key plays (protocol version 5; README.md "Key escrow"): the START
// pins every member's, a counted hand-over its recipient's, and nothing signed later changes them.
// The cheats: a creator pinning a key a member does not hold, a hand-over recipient swapping its key
// once it plays, and STARTs no honest phone sends (pins missing, for keys it does not name, twice,
// not points). The late second JOIN of a member is tests/protocol/escrow-rewrite.test.ts.
import { describe, expect, it } from 'vitest';
import {
  acceptStart,
  checkPayload,
  createGame,
  encodePayload,
  joinGame,
  messageId,
  reduceLog,
  signPayloadBytes,
  startKeys,
  type GameView,
  type Payload,
  type Signed,
  type StartPayload,
} from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, identity, payloadOf, rng, settings, T0 } from './helpers';
import { Device, fastSign, handOver, nativeVerifier, powersHeld, reduceAs, seal, sealAll, settle, table, voteOut, type Table } from './sealed-adapter';

const HOUR = 3_600_000;

/** Seven phones joined to a 'choice' game, nothing started. */
function lobby(seed: number) {
  const devices = POWERS.map((_, i) => new Device(identity(i), rng(seed * 100 + i), `p${i}`));
  const creator = devices[0]!;
  const { gameId, message } = createGame(creator.me, rng(seed).bytes(16), settings(), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const d of devices) log.push(joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1)).bytes);
  const roster = Object.fromEntries(POWERS.map((p, i) => [p, devices[i]!.key])) as Record<Power, string>;
  return { gameId, devices, creator, log, roster, honestPins: escrowOf(devices.map((d) => d.me)) };
}

/** A START signed by the creator as it likes (a cheater signs any pins its payload can carry). */
function start(l: ReturnType<typeof lobby>, escrow: Record<string, string>, time = T0 + 2): Signed {
  return fastSign(l.creator.me, { type: 'start', game: l.gameId, ...l.creator.stamp(time), roster: l.roster, participants: [], escrow } as never);
}

const reduce = (gameId: string, log: readonly Uint8Array[], me?: string) =>
  reduceLog(gameId, log, { verifier: nativeVerifier, ...(me === undefined ? {} : { me }) });

/** What "nothing changes" means for a lobby entry: the same status, START, members and acceptances. */
const lobbyFacts = (v: GameView) => ({
  status: v.status,
  start: 'start' in v ? v.start : undefined,
  members: v.members,
  starts: v.starts,
  accepted: v.accepted,
});

describe('the START pins every member’s escrow key', () => {
  it('a member’s phone refuses to accept a START pinning another escrow key for it; the others accept', () => {
    const l = lobby(801);
    const victim = l.devices[3]!;
    const wrong = start(l, { ...l.honestPins, [victim.key]: identity(30).escrowPublicKey });
    expect(() => acceptStart(victim.me, l.gameId, wrong, victim.stamp(T0 + 3))).toThrow(/pins another escrow key/);
    expect(() => acceptStart(l.devices[4]!.me, l.gameId, wrong, l.devices[4]!.stamp(T0 + 3))).not.toThrow();
  });

  it('a START pinning a key the member never joined with is no START: the game does not start with it, even accepted by every member', () => {
    const l = lobby(802);
    const victim = l.devices[3]!;
    for (const other of [identity(30).escrowPublicKey, l.devices[4]!.me.escrowPublicKey]) {
      const wrong = start(l, { ...l.honestPins, [victim.key]: other });
      // Another path (a patched phone, the forked screen) signs the acceptance anyway.
      const acks = l.devices.slice(1).map((d) => fastSign(d.me, { type: 'ack', game: l.gameId, ...d.stamp(T0 + 3), phase: 'start', hash: wrong.id } as never));
      const log = [...l.log, wrong.bytes, ...acks.map((a) => a.bytes)];
      for (const me of [undefined, victim.key, l.creator.key]) {
        const v = reduce(l.gameId, log, me);
        expect(v.ignored).toContainEqual({ id: wrong.id, reason: 'start-escrow-not-joined' });
        expect(v.status).toBe('lobby');
        expect(v.starts).toEqual([]);
      }
      // The creator can still start the game, pinning the keys the members joined with: no duplicate START.
      const right = start(l, l.honestPins, T0 + 4);
      const started = reduce(l.gameId, [...log, right.bytes, ...l.devices.slice(1).map((d) => acceptStart(d.me, l.gameId, right, d.stamp(T0 + 5)).bytes)]);
      expect(started.status).toBe('playing');
      expect(started.misconduct.filter((m) => m.kind === 'duplicate-start')).toEqual([]);
      expect(started.players.find((p) => p.key === victim.key)!.escrow).toBe(victim.me.escrowPublicKey);
    }
  });

  it('under a pinned START a member’s escrow key is the pinned one whatever it joins with later (view.players deals to it)', () => {
    const l = lobby(803);
    const s = start(l, l.honestPins);
    const log = [...l.log, s.bytes, ...l.devices.slice(1).map((d) => acceptStart(d.me, l.gameId, s, d.stamp(T0 + 3)).bytes)];
    const d = l.devices[2]!;
    const rejoin = joinGame({ ...d.me, escrowPublicKey: identity(31).escrowPublicKey }, l.gameId, d.name, null, d.stamp(T0 + 10));
    const v = reduce(l.gameId, [...log, rejoin.bytes]);
    expect(v.misconduct.some((m) => m.kind === 'escrow-key-conflict' && m.author === d.key)).toBe(true);
    expect(v.players.find((p) => p.key === d.key)!.escrow).toBe(d.me.escrowPublicKey);
  });
});

/** Signs START payload bytes as they are, by the creator. */
function signedStart(l: ReturnType<typeof lobby>, payload: Uint8Array): Signed {
  const bytes = signPayloadBytes(l.creator.me, payload);
  return { id: messageId(bytes), bytes };
}

describe('STARTs no honest phone sends: a clear reason, never a throw, nothing changes', () => {
  const l = lobby(804);
  const honest = payloadOf(start(l, l.honestPins).bytes) as StartPayload;
  const keys = startKeys(honest);
  const bytes = encodePayload(honest as Payload);
  // The pins are the payload's last field: a count (one byte here) and 32 bytes per key the START names.
  const head = bytes.subarray(0, bytes.length - 1 - 32 * keys.length);
  const pinBytes = (n: number) => bytes.subarray(bytes.length - 32 * (keys.length - n), bytes.length - 32 * (keys.length - n - 1));
  const withPins = (pins: readonly Uint8Array[]) => Uint8Array.from([...head, pins.length, ...pins.flatMap((p) => [...p])]);
  const before = lobbyFacts(reduce(l.gameId, l.log));
  const notPoint = new Uint8Array(32).fill(0xff);
  notPoint[31] = 0x0f;

  const cases: [string, Uint8Array, string][] = [
    ['without pins', withPins([]), 'binary-start-escrow-not-one-per-key'],
    ['one pin short', withPins(keys.slice(1).map((_, n) => pinBytes(n + 1))), 'binary-start-escrow-not-one-per-key'],
    ['a pin for a key it does not name', withPins([...keys.map((_, n) => pinBytes(n)), pinBytes(0)]), 'binary-start-escrow-not-one-per-key'],
    ['a key pinned twice', withPins([pinBytes(0), ...keys.map((_, n) => pinBytes(n))]), 'binary-start-escrow-not-one-per-key'],
    ['a pin that is not a point', withPins(keys.map((_, n) => (n === 2 ? notPoint : pinBytes(n)))), 'start-escrow-not-a-point'],
    ['version 4 with pins', Uint8Array.from([4, ...bytes.subarray(1)]), 'binary-trailing-bytes'],
  ];
  for (const [what, payload, reason] of cases) {
    it(`${what}: ${reason}`, () => {
      const bad = signedStart(l, payload);
      let v: GameView | undefined;
      expect(() => (v = reduce(l.gameId, [...l.log, bad.bytes]))).not.toThrow();
      expect(v!.ignored.some((i) => i.reason === reason)).toBe(true);
      expect(lobbyFacts(v!)).toEqual(before);
      // The phone whose pin is broken signs nothing either.
      const victim = l.devices.find((d) => d.key === keys[2])!;
      expect(() => acceptStart(victim.me, l.gameId, bad, victim.stamp(T0 + 3))).toThrow();
    });
  }

  it('the shape check: a version 5 START or HANDOVER without escrow keys, or an older one with them, is refused', () => {
    const { escrow: _pins, ...bare } = honest;
    expect(checkPayload(bare)).toEqual({ ok: false, reason: 'missing-escrow-keys' });
    expect(checkPayload({ ...honest, v: 4 })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...honest, escrow: { ...honest.escrow, [keys[0]!]: 'x' } })).toEqual({ ok: false, reason: 'bad-shape' });
    const handover = {
      v: 5,
      type: 'handover',
      game: l.gameId,
      from: keys[0],
      seq: 1,
      time: 1,
      phase: '1901-spring-movement',
      power: 'england',
      to: keys[1],
      start: 'ab'.repeat(16),
    };
    expect(checkPayload(handover)).toEqual({ ok: false, reason: 'missing-escrow-keys' });
    expect(checkPayload({ ...handover, v: 4, escrow: l.honestPins[keys[1]!] })).toEqual({ ok: false, reason: 'bad-shape' });
  });
});

/** England absent in the first phase; the others vote it out and hand it to the spare (`escrow`: the key the HANDOVERs name). */
function handedToSpare(seed: number, escrow?: string): { t: Table; spare: Device; players: Device[] } {
  const t = table({ seed, spares: 1 });
  const england = t.devices[1]!;
  const spare = t.spares[0]!;
  const present = t.devices.filter((d) => d !== england);
  sealAll(t, present, {}, T0 + HOUR);
  const v = reduceAs(t, null);
  voteOut(t, present, ['england'], v.current!.revealDeadline + HOUR);
  if (escrow === undefined) handOver(t, present.slice(1, 5), 'england', spare.key, T0 + 40 * HOUR);
  else
    for (const d of present.slice(1, 5)) {
      const body = {
        type: 'handover',
        game: t.gameId,
        ...d.stamp(T0 + 40 * HOUR),
        phase: v.current!.key,
        power: 'england',
        to: spare.key,
        start: t.startId,
        escrow,
      };
      t.log.push(fastSign(d.me, body as never).bytes);
    }
  settle(t, present, v.current!.revealDeadline + HOUR);
  return { t, spare, players: [...present, spare] };
}

describe('a hand-over pins its recipient’s escrow key', () => {
  it('the recipient cannot withdraw a complaint by joining again with another escrow key once it plays', () => {
    const { t, spare, players } = handedToSpare(805);
    expect(reduceAs(t, null).holders!.england).toBe(spare.key);
    const turkey = t.devices[6]!;
    const time = T0 + 50 * HOUR;
    seal(t, turkey, 'turkey', [], time, { bogusShareFor: [spare.key] });
    sealAll(t, players, {}, time, ['turkey']);
    const played = settle(t, players, time + 1);
    expect(played.phases).toHaveLength(2);
    expect(played.misconduct.some((m) => m.kind === 'escrow-bad-share' && m.author === turkey.key && m.phase === played.phases[1]!.key)).toBe(true);
    sealAll(t, players, {}, time + HOUR);
    const before = settle(t, players, time + HOUR + 1);
    expect(before.phases).toHaveLength(3);
    const again = joinGame({ ...spare.me, escrowPublicKey: identity(32).escrowPublicKey }, t.gameId, spare.name, null, spare.stamp(time + 2 * HOUR));
    const after = reduce(t.gameId, [...t.log, again.bytes]);
    expect(after.misconduct.some((m) => m.kind === 'escrow-key-conflict' && m.author === spare.key)).toBe(true);
    expect(after.phases.map((p) => p.stateHash)).toEqual(before.phases.map((p) => p.stateHash));
    expect(after.players.find((p) => p.key === spare.key)!.escrow).toBe(spare.me.escrowPublicKey);
  });

  it('hand-overs naming an escrow key the recipient never joined with do not count', () => {
    const { t, spare } = handedToSpare(806, identity(33).escrowPublicKey);
    const v = reduceAs(t, null);
    expect(v.holders!.england).toBe(t.devices[1]!.key);
    expect(v.ignored.filter((i) => i.reason === 'handover-escrow-not-the-recipients')).toHaveLength(4);
    expect(powersHeld(v, spare)).toEqual([]);
  });
});
