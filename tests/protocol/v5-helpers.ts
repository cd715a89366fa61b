// Shared setup of the version 5 tests of the ACK a LOCK carries (ack-in-lock, v5-attacks).
import { finalOrders, lockBallot, messageId, signMessage, type PayloadBody } from '../../src/protocol';
import type { LockPayload } from '../../src/protocol/messages';
import { T0 } from './helpers';
import { fork, opened, payloadOf, playHonest, post, reduceAs, sealAll, settle, table } from './sealed-adapter';

const HOUR = 3_600_000;

/** Phase 1 played, phase 2 sealed by all; `liar` posts its FINAL and then the given LOCK(s) of phase 2. */
export function lockingPhaseTwo(seed: number) {
  const t = table({ seed });
  playHonest(t, {}, T0 + HOUR);
  const first = reduceAs(t, null).phases[0]!;
  sealAll(t, t.devices, {}, T0 + 2 * HOUR);
  const honest = fork(t);
  const liar = t.devices[2]!;
  const others = t.devices.filter((d) => d !== liar);
  const phase = reduceAs(t, null).current!.key;
  const power = reduceAs(t, liar).current!.required.find((p) => reduceAs(t, null).holders![p] === liar.key)!;
  post(t, [finalOrders(liar.me, t.gameId, phase, power, liar.commitsFor(phase, power).at(-1)!, liar.stamp(T0 + 2 * HOUR))]);
  settle(t, others, T0 + 2 * HOUR + 1, { hold: others });
  const lock = lockBallot(liar.me, t.gameId, reduceAs(t, liar), opened(t.log), liar.stamp(T0 + 2 * HOUR + 1));
  const withAck = (ack: string | null) => {
    const { v: _v, from: _f, ...body } = { ...(payloadOf(lock.bytes) as LockPayload), ack };
    const bytes = signMessage(liar.me, body as PayloadBody);
    return { id: messageId(bytes), bytes };
  };
  return { t, honest, liar, first, lock, withAck };
}
