// The binary plaintext inside a version-3 sealed box (seal.ts), written once here.
//
// orders: 3, flags (1: a draw vote is present, 2: it is yes, 4: a coin is present), [coin: 32
// bytes], count (varint), each order, then zero bytes up to the padded size. An order: kind (one
// byte), power (one byte), its fields in a fixed order per kind; a unit is its type (0 army,
// 1 fleet) and its location; a location is its length (1..8) and its ASCII characters; an optional
// field is 0 (absent) or 1 and the field (viaConvoy: 0 absent, 1 false, 2 true).
// lot value: 3, the 32-byte value, then zero bytes.
//
// The longest order (a support naming a destination, every location 8 characters: 2 + 3 × 10) is
// ORDER_BYTES, and the fixed part (tag, flags, coin, count: 35) under FIXED_BYTES, so every order set of
// k orders fits the padded size of k (seal.ts paddedSize): the length tells nothing more than k.
// Reading: only the one form (checked by writing what was read), never a throw.
import { POWERS, type Order, type Power, type UnitRef } from '../rules';
import { checkOrders, MAX_ORDERS } from './orders';

export const PLAIN_TAG = 3;
/** Bound on one order's bytes (the longest is exactly this). */
export const ORDER_BYTES = 32;
/** Bound on the bytes around the orders: tag, flags, a coin, the count. */
export const FIXED_BYTES = 48;

const KINDS: readonly Order['kind'][] = ['hold', 'move', 'support', 'convoy', 'retreat', 'disband', 'build', 'remove', 'waive'];

class Out {
  readonly bytes: number[] = [];
  u8(x: number): void {
    this.bytes.push(x);
  }
  loc(x: string): void {
    if (!/^[\x21-\x7e]{1,8}$/.test(x)) throw new Error(`not a location: ${x}`);
    this.u8(x.length);
    for (let i = 0; i < x.length; i++) this.u8(x.charCodeAt(i));
  }
  unit(u: UnitRef): void {
    this.u8(u.type === 'A' ? 0 : 1);
    this.loc(u.loc);
  }
}

function writeOrder(o: Out, order: Order): void {
  o.u8(KINDS.indexOf(order.kind));
  o.u8(POWERS.indexOf(order.power));
  if (order.kind === 'waive') return;
  o.unit(order.unit);
  switch (order.kind) {
    case 'move':
      o.loc(order.to);
      o.u8(order.viaConvoy === undefined ? 0 : order.viaConvoy ? 2 : 1);
      break;
    case 'support':
      o.unit(order.supported);
      if (order.to === undefined) o.u8(0);
      else {
        o.u8(1);
        o.loc(order.to);
      }
      break;
    case 'convoy':
      o.loc(order.army);
      o.loc(order.to);
      break;
    case 'retreat':
      o.loc(order.to);
      break;
    default:
      break;
  }
}

/** The plaintext of an order set (unpadded); throws for what is not a well-formed order. */
export function ordersPlain(content: { readonly orders: readonly Order[]; readonly draw?: boolean; readonly coin?: Uint8Array }): Uint8Array {
  if (checkOrders(content.orders as unknown) === null) throw new Error('ordersPlain: malformed orders');
  const o = new Out();
  o.u8(PLAIN_TAG);
  o.u8((content.draw === undefined ? 0 : 1) | (content.draw === true ? 2 : 0) | (content.coin === undefined ? 0 : 4));
  if (content.coin !== undefined) for (const b of content.coin) o.u8(b);
  o.u8(content.orders.length);
  for (const order of content.orders) writeOrder(o, order);
  return Uint8Array.from(o.bytes);
}

export function lotPlain(value: Uint8Array): Uint8Array {
  return Uint8Array.from([PLAIN_TAG, ...value]);
}

class In {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  u8(): number {
    if (this.pos >= this.b.length) throw new Error('truncated');
    return this.b[this.pos++]!;
  }
  raw(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error('truncated');
    const out = this.b.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  loc(): string {
    const n = this.u8();
    if (n < 1 || n > 8) throw new Error('bad location');
    return String.fromCharCode(...this.raw(n));
  }
  unit(): UnitRef {
    const t = this.u8();
    if (t > 1) throw new Error('bad unit');
    return { type: t === 0 ? 'A' : 'F', loc: this.loc() };
  }
  /** The rest must be zero padding. */
  padding(): void {
    for (let i = this.pos; i < this.b.length; i++) if (this.b[i] !== 0) throw new Error('bad padding');
  }
}

function readOrder(i: In): Order {
  const kind = KINDS[i.u8()];
  const power = POWERS[i.u8()] as Power | undefined;
  if (kind === undefined || power === undefined) throw new Error('bad order');
  if (kind === 'waive') return { kind, power };
  const unit = i.unit();
  switch (kind) {
    case 'move': {
      const to = i.loc();
      const via = i.u8();
      if (via > 2) throw new Error('bad order');
      return via === 0 ? { kind, power, unit, to } : { kind, power, unit, to, viaConvoy: via === 2 };
    }
    case 'support': {
      const supported = i.unit();
      const has = i.u8();
      if (has > 1) throw new Error('bad order');
      return has === 0 ? { kind, power, unit, supported } : { kind, power, unit, supported, to: i.loc() };
    }
    case 'convoy':
      return { kind, power, unit, army: i.loc(), to: i.loc() };
    case 'retreat':
      return { kind, power, unit, to: i.loc() };
    default:
      return { kind, power, unit };
  }
}

export interface PlainOrders {
  readonly orders: Order[];
  readonly draw: boolean;
  readonly coin: Uint8Array | null;
}

/** An opened binary order plaintext, or null; never throws. */
export function ordersFromBinaryPlain(plain: Uint8Array, coinBytes: number): PlainOrders | null {
  try {
    const i = new In(plain);
    if (i.u8() !== PLAIN_TAG) return null;
    const flags = i.u8();
    if (flags > 7 || (flags & 3) === 2) return null;
    const coin = (flags & 4) !== 0 ? i.raw(coinBytes) : null;
    const n = i.u8();
    if (n > MAX_ORDERS) return null;
    const orders: Order[] = [];
    for (let k = 0; k < n; k++) orders.push(readOrder(i));
    i.padding();
    const checked = checkOrders(orders);
    if (checked === null) return null;
    // One form: what was read writes back to the same bytes.
    const again = ordersPlain({ orders: checked, ...((flags & 1) !== 0 ? { draw: (flags & 2) !== 0 } : {}), ...(coin === null ? {} : { coin }) });
    if (again.some((b, k) => plain[k] !== b)) return null;
    return { orders: checked, draw: (flags & 2) !== 0, coin };
  } catch {
    return null;
  }
}

export function lotValueFromBinaryPlain(plain: Uint8Array, valueBytes: number): Uint8Array | null {
  try {
    const i = new In(plain);
    if (i.u8() !== PLAIN_TAG) return null;
    const value = i.raw(valueBytes);
    i.padding();
    return value;
  } catch {
    return null;
  }
}
