// What the clock tests of issue 31 share (clock-coalition, clock-version, clock-sizes,
// clock-finality): the times, the four-key table with a colluding pair, and the pair's attack.
import { encodePayload, messageId, signPayloadBytes, type GameView, type Identity, type Payload, type Signed } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { T0 } from './helpers';
import { payloadOf, reduceAs, sealAll, settle, type Device, type Table } from './sealed-adapter';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The honest clocks when the first phase closes. */
export const REAL = T0 + 50 * HOUR;
/** A liar's claim, a hundred years ahead. */
export const FUTURE = REAL + 100 * 365 * DAY;

/** Four keys, each of the pair holding two powers (one more key holds two as well). */
export const FOUR: Power[][] = [['austria', 'england'], ['france', 'germany'], ['italy', 'russia'], ['turkey']];

/** Issue 31's attack 1: the pair (the first two keys) reveals first claiming a hundred years
 *  ahead; the honest pair at REAL + 2. Returns the view after it. */
export function pairAttack(t: Table): { before: GameView; pair: Device[]; honest: Device[] } {
  const pair = t.devices.slice(0, 2);
  const honest = t.devices.slice(2);
  sealAll(t, t.devices, {}, REAL);
  settle(t, t.devices, REAL + 1, { hold: t.devices, clock: (d) => (pair.includes(d) ? FUTURE : undefined) });
  settle(t, pair, FUTURE);
  settle(t, honest, REAL + 2);
  return { before: reduceAs(t, null), pair, honest };
}

/**
 * The same payload signed at another version (`over`: fields changed, a field set to undefined
 * left out): what an older release (or a patched app) signs.
 */
export function resigned(me: Identity, bytes: Uint8Array, v: number, over: Record<string, unknown> = {}): Signed {
  const fields = Object.entries({ ...payloadOf(bytes), ...over, v }).filter(([, x]) => x !== undefined);
  const signed = signPayloadBytes(me, encodePayload(Object.fromEntries(fields) as unknown as Payload));
  return { id: messageId(signed), bytes: signed };
}
