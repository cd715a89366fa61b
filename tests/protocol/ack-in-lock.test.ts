// Protocol version 5 folds a player's ACK of a resolved phase into its LOCK of the next phase
// (README.md "The sealed ballot", ACKs): one signed entry instead of two, the same fact read from it.
import { describe, expect, it } from 'vitest';
import { ackCarriedByLock, checkPayload, CodecError, decodePayload, encodePayload, lockBallot, type Payload } from '../../src/protocol';
import type { LockPayload } from '../../src/protocol/messages';
import { duties } from '../../src/ui/game/duties';
import { T0 } from './helpers';
import { lockingPhaseTwo } from './v5-helpers';
import { opened, payloadOf, playHonest, post, reduceAs, sealAll, settle, table, type Table } from './sealed-adapter';

const HOUR = 3_600_000;

/** Entries of `type` in the log, as payloads. */
const entries = (t: Table, type: string) => t.log.map((b) => payloadOf(b)).filter((p) => p.type === type);

describe('the ACK in the LOCK (protocol version 5)', () => {
  it('an honest phone ACKs a phase in its LOCK of the next one: no separate ACK, and every player is listed as having acked', () => {
    const t = table({ seed: 801 });
    playHonest(t, {}, T0 + HOUR);
    const first = reduceAs(t, null).phases[0]!;
    // Phase 2 is open: every key owes a LOCK, so no ACK of phase 1 is due on its own.
    for (const d of t.devices) {
      const v = reduceAs(t, d);
      expect(ackCarriedByLock(v, d.key)).toBe(first.key);
      expect(duties({ view: v, me: d.key }).filter((x) => x.kind === 'ack')).toEqual([]);
    }
    const v = playHonest(t, {}, T0 + 3 * HOUR);
    expect(v.phases.length).toBeGreaterThanOrEqual(2);
    expect(entries(t, 'ack').filter((p) => p.type === 'ack' && p.phase === first.key)).toEqual([]);
    const locks = entries(t, 'lock') as LockPayload[];
    expect(locks.filter((l) => l.phase !== first.key).every((l) => l.ack === first.stateHash)).toBe(true);
    expect(locks.filter((l) => l.phase === first.key).every((l) => l.ack === null)).toBe(true);
    expect(v.acked[first.key]).toEqual(t.devices.map((d) => d.key).sort());
    expect(v.hashMismatches).toEqual([]);
  });

  it('the ACK in a LOCK is its signer’s alone: a wrong hash shows as that signer’s mismatch and changes nothing else', () => {
    const { t, honest, liar, first, lock, withAck } = lockingPhaseTwo(802);
    expect((payloadOf(lock.bytes) as LockPayload).ack).toBe(first.stateHash);
    post(t, [withAck('00'.repeat(16))]);
    const a = settle(t, t.devices, T0 + 2 * HOUR + 2);
    const b = settle(honest, honest.devices, T0 + 2 * HOUR + 2);
    expect(a.hashMismatches).toEqual([{ phase: first.key, author: liar.key, claimed: '00'.repeat(16), expected: first.stateHash }]);
    expect(a.acked[first.key]).toContain(liar.key);
    expect(b.hashMismatches).toEqual([]);
    // The rest of the game reads the same: the ACK decides nothing.
    expect(a.phases.length).toBe(2);
    expect(a.phases.map((p) => [p.key, p.stateHash])).toEqual(b.phases.map((p) => [p.key, p.stateHash]));
  });

  it('one form per version: a version 4 LOCK never carries an ack, a version 5 LOCK always says it (a hash or null)', () => {
    const t = table({ seed: 803 });
    sealAll(t, t.devices, {}, T0 + HOUR);
    settle(t, t.devices, T0 + HOUR + 1, { hold: t.devices });
    const d = t.devices[0]!;
    const lock = payloadOf(lockBallot(d.me, t.gameId, reduceAs(t, d), opened(t.log), d.stamp(T0 + HOUR + 2)).bytes) as LockPayload;
    expect(lock.v).toBeGreaterThanOrEqual(5);
    expect(lock.ack).toBeNull();
    const { ack: _a, ...withoutAck } = lock;
    const v4 = { ...withoutAck, v: 4 } as Payload;
    expect(checkPayload(v4).ok).toBe(true);
    expect(decodePayload(encodePayload(v4))).toEqual({ ok: true, value: v4 });
    // Mixing the forms: v4 with an ack, v5 without one.
    expect(checkPayload({ ...v4, ack: null })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(() => encodePayload({ ...v4, ack: null } as Payload)).toThrow(CodecError);
    expect(checkPayload(withoutAck)).toEqual({ ok: false, reason: 'bad-shape' });
    expect(() => encodePayload(withoutAck as Payload)).toThrow(CodecError);
    // A v5 LOCK's bytes read as version 4 (and the reverse) are refused with a reason, never a throw.
    const v5bytes = encodePayload(lock);
    const v4bytes = encodePayload(v4);
    for (const [bytes, v] of [
      [v5bytes, 4],
      [v4bytes, 5],
    ] as const) {
      const out = decodePayload(new Uint8Array([v, ...bytes.subarray(1)]));
      expect(out.ok).toBe(false);
    }
  });
});
