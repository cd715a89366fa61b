// Rebuilds ed25519-generated.json: edge cases made from fixed secret scalars (run with tsx; the
// output is committed, and ed25519-vectors.test.ts checks each case is what its name says).
import { writeFileSync } from 'node:fs';
import { ed25519 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';

const Point = ed25519.Point;
const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const le = (b: Uint8Array): bigint => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);
const bytes32 = (n: bigint): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const k = (R: Uint8Array, A: Uint8Array, m: Uint8Array): bigint => le(nacl.hash(Uint8Array.from([...R, ...A, ...m]))) % L;
const sig = (R: Uint8Array, S: bigint): Uint8Array => Uint8Array.from([...R, ...bytes32(S)]);

const a = 0x1234567890abcdefn * 0x1000003n + 7n; // the honest key's secret scalar
const r = 0xfedcba0987654321n * 0x1000033n + 11n; // the nonce
const A = Point.BASE.multiply(a).toBytes();
const m = new TextEncoder().encode('pacto&');
const order8 = Point.fromBytes(Uint8Array.from(Buffer.from('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', 'hex')));

const cases: { name: string; message: string; pub_key: string; signature: string }[] = [];
const add = (name: string, pub: Uint8Array, s: Uint8Array, msg = m): void => void cases.push({ name, message: hex(msg), pub_key: hex(pub), signature: hex(s) });

// honest
const R = Point.BASE.multiply(r).toBytes();
const S = (r + k(R, A, m) * a) % L;
add('honest', A, sig(R, S));
// an honest signature over another message
add('wrong-message', A, sig(R, S), new TextEncoder().encode('pacto?'));
// S + L: the same equation holds for verifiers that do not reduce or check S
add('s-plus-l', A, sig(R, S + L));
// R of mixed order (rB + T, T of order 8): the cofactored equation holds, the cofactorless not
const Rm = Point.BASE.multiply(r).add(order8).toBytes();
add('r-mixed-order', A, sig(Rm, (r + k(Rm, A, m) * a) % L));
// R = the identity, canonical: [S]B - [k]A = identity with S = k·a (every cofactorless verifier accepts)
const Rid = bytes32(1n);
add('r-small-order', A, sig(Rid, (k(Rid, A, m) * a) % L));
// R = the identity encoded with y = p + 1 (non-canonical): verifiers that decode R accept it
const Rnc = bytes32(P + 1n);
add('r-non-canonical', A, sig(Rnc, (k(Rnc, A, m) * a) % L));
// A = the identity encoded with y = p + 1: [S]B - [k]A = rB = R for S = r, whatever k
const Anc = bytes32(P + 1n);
add('key-non-canonical', Anc, sig(R, r));
// A of mixed order (aB + T): for verifiers that skip the subgroup check
const Am = Point.BASE.multiply(a).add(order8).toBytes();
add('key-mixed-order', Am, sig(R, (r + k(R, Am, m) * a) % L));

writeFileSync(new URL('./ed25519-generated.json', import.meta.url), JSON.stringify(cases, null, 1) + '\n');
console.log(cases.map((c) => c.name).join(' '));
