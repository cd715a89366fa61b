// The binary plaintext of version-3 sealed boxes (src/protocol/plain.ts): every order kind comes
// back as sealed, every order set of k orders pads to the same size, and a bad plaintext opens to
// nothing, never a throw.
import { describe, expect, it } from 'vitest';
import { POWERS, randomOrders, type Order } from '../../src/rules';
import { openSealed, ordersFromPlain, lotValueFromPlain, paddedSize, sealLotValue, sealOrders } from '../../src/protocol';
import { ORDER_BYTES, ordersPlain } from '../../src/protocol/plain';
import { rng, startedGame, view } from './helpers';

const every: Order[] = [
  { kind: 'hold', power: 'austria', unit: { type: 'A', loc: 'vie' } },
  { kind: 'move', power: 'england', unit: { type: 'F', loc: 'lon' }, to: 'nth' },
  { kind: 'move', power: 'england', unit: { type: 'A', loc: 'lvp' }, to: 'nwy', viaConvoy: true },
  { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'bur', viaConvoy: false },
  { kind: 'support', power: 'germany', unit: { type: 'A', loc: 'mun' }, supported: { type: 'A', loc: 'ber' }, to: 'sil' },
  { kind: 'support', power: 'germany', unit: { type: 'F', loc: 'kie' }, supported: { type: 'A', loc: 'ber' } },
  { kind: 'convoy', power: 'england', unit: { type: 'F', loc: 'nth' }, army: 'lvp', to: 'nwy' },
  { kind: 'retreat', power: 'russia', unit: { type: 'F', loc: 'stp/sc' }, to: 'bot' },
  { kind: 'disband', power: 'turkey', unit: { type: 'F', loc: 'ank' } },
  { kind: 'build', power: 'italy', unit: { type: 'F', loc: 'nap' } },
  { kind: 'remove', power: 'italy', unit: { type: 'A', loc: 'rom' } },
  { kind: 'waive', power: 'russia' },
];
const longest: Order = { kind: 'support', power: 'turkey', unit: { type: 'F', loc: 'abcdefgh' }, supported: { type: 'F', loc: 'abcdefgh' }, to: 'abcdefgh' };
const secret = 987654321n;
const nonce = new Uint8Array(24).fill(3);
const open = (sealed: string) => ordersFromPlain(openSealed(sealed, secret)!);

describe('the binary sealed plaintext', () => {
  it('gives back every kind of order, the draw vote and the coin as sealed', () => {
    const coin = new Uint8Array(32).fill(9);
    for (const draw of [undefined, false, true]) {
      const box = sealOrders({ orders: every, ...(draw === undefined ? {} : { draw }), coin }, every.length, secret, nonce);
      expect(open(box.sealed)).toEqual({ orders: every, draw: draw === true, coin });
    }
    const lot = sealLotValue(new Uint8Array(32).fill(7), secret, nonce);
    expect(lotValueFromPlain(openSealed(lot.sealed, secret)!)).toEqual(new Uint8Array(32).fill(7));
  });

  it('pads every order set of k orders to one size, the longest order and a coin included', () => {
    expect(ordersPlain({ orders: [longest] }).length - ordersPlain({ orders: [] }).length).toBe(ORDER_BYTES);
    const game = startedGame(3);
    const position = view(game).current!.position;
    const r = rng(3);
    for (let k = 0; k <= 17; k++) {
      const sizes = new Set<number>();
      const sets: Order[][] = [Array.from({ length: k }, () => longest), every.slice(0, Math.min(k, every.length)), []];
      for (const p of POWERS) sets.push(randomOrders(position, p, r.int).slice(0, k));
      for (const orders of sets) {
        for (const extra of [{}, { draw: true }, { draw: false, coin: new Uint8Array(32) }]) {
          sizes.add(sealOrders({ orders, ...extra }, k, secret, nonce).sealed.length);
        }
      }
      expect([...sizes]).toHaveLength(1);
      expect(paddedSize(k)).toBeLessThan(paddedSize(k, 2) / 2 + 64);
    }
  });

  it('opens a bad plaintext to nothing: other padding, truncation, unknown kinds, any byte changed', () => {
    const plain = new Uint8Array(paddedSize(every.length));
    plain.set(ordersPlain({ orders: every, draw: true }));
    expect(ordersFromPlain(plain)?.orders).toEqual(every);
    const dirty = plain.slice();
    dirty[dirty.length - 1] = 1;
    expect(ordersFromPlain(dirty)).toBeNull();
    for (let n = 0; n < 120; n++) expect(() => ordersFromPlain(plain.subarray(0, n))).not.toThrow();
    expect(ordersFromPlain(plain.subarray(0, 40))).toBeNull();
    for (let k = 0; k < plain.length; k++) {
      for (const flip of [1, 0x40, 0xff]) {
        const changed = plain.slice();
        changed[k]! ^= flip;
        const opened = ordersFromPlain(changed);
        // Whatever opens is exactly what those bytes write, so no two plaintexts open the same.
        if (opened !== null)
          expect(ordersPlain({ orders: opened.orders, draw: opened.draw })).toEqual(
            changed.subarray(0, ordersPlain({ orders: opened.orders, draw: opened.draw }).length),
          );
      }
    }
  });
});
