// The pairing code: SDP essentials packed into bytes for a QR code in byte mode (8 bits a byte, the
// densest mode a QR code has for binary data). A Chrome offer is 84 bytes with its IPv4 and IPv6
// candidates and 96 with both hidden behind mDNS names, against 600+ characters of SDP. Every byte
// counts: 84 is exactly what a version-5 QR code holds at error correction M.
//
// Layout (version 1):
//   0      0x50 | version: a magic nibble and the format version
//   1      flags: bit0 answer, bits1-2 setup (actpass/active/passive), bits3-4 hash
//          (sha-256/384/512), bit5 mid is not "0"
//   2      slot: which of the host's open invitations this answers (echoed by the guest)
//   ufrag  length in characters, then 6 bits per character (ICE characters are the base64 alphabet)
//   pwd    the same
//   fingerprint  32, 48 or 64 bytes
//   [mid]  length byte + UTF-8, only when bit5 is set
//   then candidates up to the end of the code, each: kind (0 IPv4, 1 IPv6, 2 mDNS uuid, 3 other
//          name: length + UTF-8), the address, and the port as two bytes big-endian.
import { ipv4Bytes, ipv6Bytes, ipv6Text, mdnsBytes, mdnsText } from './address';
import { SdpError, type DtlsSetup, type FingerprintHash, type HostCandidate, type SdpEssentials } from './sdp';

const MAGIC = 0x50;
const VERSION = 1;
const ICE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SETUPS: readonly DtlsSetup[] = ['actpass', 'active', 'passive'];
const HASHES: readonly FingerprintHash[] = ['sha-256', 'sha-384', 'sha-512'];
const HASH_BYTES = [32, 48, 64];
/** Leaves room in a QR code that a phone reads at arm's length; real offers carry 1 to 4. */
export const MAX_PAIRING_CANDIDATES = 8;

export interface PairingCode extends SdpEssentials {
  readonly slot: number;
}

class Writer {
  private readonly bytes: number[] = [];
  byte(b: number): void {
    this.bytes.push(b & 0xff);
  }
  raw(b: Uint8Array): void {
    for (const x of b) this.bytes.push(x);
  }
  short(text: string): void {
    const b = new TextEncoder().encode(text);
    if (b.length > 255) throw new SdpError('field too long');
    this.byte(b.length);
    this.raw(b);
  }
  iceString(text: string): void {
    if (text.length > 255) throw new SdpError('ICE credential too long');
    this.byte(text.length);
    let acc = 0;
    let bits = 0;
    for (const ch of text) {
      const v = ICE_CHARS.indexOf(ch);
      if (v < 0) throw new SdpError(`not an ICE character: ${ch}`);
      acc = (acc << 6) | v;
      bits += 6;
      while (bits >= 8) {
        bits -= 8;
        this.byte(acc >> bits);
      }
      acc &= (1 << bits) - 1;
    }
    if (bits > 0) this.byte(acc << (8 - bits));
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}
  byte(): number {
    const b = this.bytes[this.at++];
    if (b === undefined) throw new SdpError('pairing code is truncated');
    return b;
  }
  raw(n: number): Uint8Array {
    if (this.at + n > this.bytes.length) throw new SdpError('pairing code is truncated');
    const out = this.bytes.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
  short(): string {
    return new TextDecoder('utf-8', { fatal: true }).decode(this.raw(this.byte()));
  }
  iceString(): string {
    const n = this.byte();
    const packed = this.raw(Math.ceil((n * 6) / 8));
    let out = '';
    let acc = 0;
    let bits = 0;
    let i = 0;
    while (out.length < n) {
      if (bits < 6) {
        acc = (acc << 8) | packed[i++]!;
        bits += 8;
      }
      bits -= 6;
      out += ICE_CHARS[(acc >> bits) & 63];
      acc &= (1 << bits) - 1;
    }
    return out;
  }
  atEnd(): boolean {
    return this.at >= this.bytes.length;
  }
}

function writeCandidate(w: Writer, c: HostCandidate): void {
  const v4 = ipv4Bytes(c.address);
  const v6 = v4 ? undefined : ipv6Bytes(c.address);
  const mdns = v4 || v6 ? undefined : mdnsBytes(c.address);
  if (v4) {
    w.byte(0);
    w.raw(v4);
  } else if (v6) {
    w.byte(1);
    w.raw(v6);
  } else if (mdns) {
    w.byte(2);
    w.raw(mdns);
  } else {
    w.byte(3);
    w.short(c.address);
  }
  w.byte(c.port >> 8);
  w.byte(c.port);
}

function readCandidate(r: Reader): HostCandidate {
  const kind = r.byte();
  let address: string;
  if (kind === 0) address = Array.from(r.raw(4)).join('.');
  else if (kind === 1) address = ipv6Text(r.raw(16));
  else if (kind === 2) address = mdnsText(r.raw(16));
  else if (kind === 3) address = r.short();
  else throw new SdpError(`unknown candidate kind ${kind}`);
  const port = (r.byte() << 8) | r.byte();
  if (port === 0) throw new SdpError('candidate port 0');
  return { address, port };
}

export function encodePairingCode(code: PairingCode): Uint8Array {
  if (!Number.isInteger(code.slot) || code.slot < 0 || code.slot > 255) throw new SdpError('slot out of range');
  const hash = HASHES.indexOf(code.fingerprintHash);
  if (hash < 0 || code.fingerprint.length !== HASH_BYTES[hash]) throw new SdpError('bad fingerprint');
  const candidates = code.candidates.slice(0, MAX_PAIRING_CANDIDATES);
  if (candidates.length === 0) throw new SdpError('no host candidate: is the phone on a network?');
  const w = new Writer();
  w.byte(MAGIC | VERSION);
  const customMid = code.mid !== '0';
  w.byte((code.type === 'answer' ? 1 : 0) | (SETUPS.indexOf(code.setup) << 1) | (hash << 3) | (customMid ? 32 : 0));
  w.byte(code.slot);
  w.iceString(code.iceUfrag);
  w.iceString(code.icePwd);
  w.raw(code.fingerprint);
  if (customMid) w.short(code.mid);
  for (const c of candidates) writeCandidate(w, c);
  return w.done();
}

export function decodePairingCode(bytes: Uint8Array): PairingCode {
  const r = new Reader(bytes);
  const head = r.byte();
  if ((head & 0xf0) !== MAGIC) throw new SdpError('not a Pacto pairing code');
  const version = head & 0x0f;
  if (version !== VERSION) throw new SdpError(`pairing code version ${version} is not supported`);
  const flags = r.byte();
  const setup = SETUPS[(flags >> 1) & 3];
  const hash = (flags >> 3) & 3;
  const fingerprintHash = HASHES[hash];
  if (!setup || !fingerprintHash || flags & 0xc0) throw new SdpError('bad pairing code flags');
  const slot = r.byte();
  const iceUfrag = r.iceString();
  const icePwd = r.iceString();
  const fingerprint = r.raw(HASH_BYTES[hash]!);
  const mid = flags & 32 ? r.short() : '0';
  const candidates: HostCandidate[] = [];
  while (!r.atEnd()) candidates.push(readCandidate(r));
  if (candidates.length === 0 || candidates.length > MAX_PAIRING_CANDIDATES) throw new SdpError('bad candidate count');
  return { type: flags & 1 ? 'answer' : 'offer', slot, iceUfrag, icePwd, fingerprintHash, fingerprint, setup, mid, candidates };
}
