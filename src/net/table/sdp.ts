// The few facts of a data-channel-only SDP that a peer needs to connect with no signaling server, and
// a rebuilt SDP carrying exactly those facts. Everything else in a browser's SDP (session ids,
// extmap, ice-options, candidate foundations) is either fixed for a data channel or free to choose,
// which is what lets a pairing code fit a small QR code.

export type SdpType = 'offer' | 'answer';
export type DtlsSetup = 'actpass' | 'active' | 'passive';
export type FingerprintHash = 'sha-256' | 'sha-384' | 'sha-512';

/** A host candidate: an IP literal or an mDNS name (Chrome hides local IPs behind `<uuid>.local`). */
export interface HostCandidate {
  readonly address: string;
  readonly port: number;
}

export interface SdpEssentials {
  readonly type: SdpType;
  readonly iceUfrag: string;
  readonly icePwd: string;
  readonly fingerprintHash: FingerprintHash;
  /** The certificate digest, raw bytes. */
  readonly fingerprint: Uint8Array;
  readonly setup: DtlsSetup;
  /** The media id of the data-channel m-line; browsers use "0" but the answer must echo the offer's. */
  readonly mid: string;
  /** UDP host candidates in the offerer's order of preference. */
  readonly candidates: readonly HostCandidate[];
}

export class SdpError extends Error {
  override readonly name = 'SdpError';
}

const FINGERPRINT_BYTES: Record<FingerprintHash, number> = { 'sha-256': 32, 'sha-384': 48, 'sha-512': 64 };

function attribute(lines: readonly string[], name: string): string | undefined {
  const prefix = `a=${name}:`;
  return lines
    .find((l) => l.startsWith(prefix))
    ?.slice(prefix.length)
    .trim();
}

function required(lines: readonly string[], name: string): string {
  const value = attribute(lines, name);
  if (value === undefined || value === '') throw new SdpError(`SDP lacks a=${name}`);
  return value;
}

function parseFingerprint(value: string): { hash: FingerprintHash; bytes: Uint8Array } {
  const [hashName, hex] = value.split(/\s+/);
  const hash = (hashName ?? '').toLowerCase();
  if (!(hash in FINGERPRINT_BYTES)) throw new SdpError(`unsupported fingerprint hash ${hashName}`);
  const h = hash as FingerprintHash;
  const parts = (hex ?? '').split(':');
  if (parts.length !== FINGERPRINT_BYTES[h] || parts.some((p) => !/^[0-9a-fA-F]{2}$/.test(p))) {
    throw new SdpError('malformed fingerprint');
  }
  return { hash: h, bytes: Uint8Array.from(parts, (p) => parseInt(p, 16)) };
}

// Only UDP host candidates matter at the table: there is no STUN/TURN, and TCP candidates
// (tcptype active, port 9) only add bytes to the QR code.
function parseCandidates(lines: readonly string[]): HostCandidate[] {
  const out: HostCandidate[] = [];
  for (const line of lines) {
    if (!line.startsWith('a=candidate:')) continue;
    const f = line.slice('a=candidate:'.length).split(/\s+/);
    const [, component, transport, , address, port, typ, type] = f;
    if (component !== '1' || transport?.toLowerCase() !== 'udp' || typ !== 'typ' || type !== 'host') continue;
    const p = Number(port);
    if (!address || !Number.isInteger(p) || p < 1 || p > 65535) continue;
    if (out.some((c) => c.address === address && c.port === p)) continue;
    out.push({ address, port: p });
  }
  return out;
}

export function parseSdp(type: SdpType, sdp: string): SdpEssentials {
  const lines = sdp.split(/\r?\n/).map((l) => l.trim());
  if (!lines.some((l) => l.startsWith('m=application ') && l.includes('webrtc-datachannel'))) {
    throw new SdpError('SDP has no data channel');
  }
  const setup = required(lines, 'setup');
  if (setup !== 'actpass' && setup !== 'active' && setup !== 'passive') throw new SdpError(`bad setup ${setup}`);
  const fp = parseFingerprint(required(lines, 'fingerprint'));
  return {
    type,
    iceUfrag: required(lines, 'ice-ufrag'),
    icePwd: required(lines, 'ice-pwd'),
    fingerprintHash: fp.hash,
    fingerprint: fp.bytes,
    setup,
    mid: attribute(lines, 'mid') ?? '0',
    candidates: parseCandidates(lines),
  };
}

function hex2(b: number): string {
  return b.toString(16).toUpperCase().padStart(2, '0');
}

// RFC 8445 priority for a host candidate; earlier candidates get a higher local preference so the
// rebuilt SDP keeps the original order of preference.
function hostPriority(index: number): number {
  const localPreference = Math.max(0, 65535 - index * 256);
  return 126 * 2 ** 24 + localPreference * 2 ** 8 + 255;
}

function connectionLine(address: string | undefined): string {
  if (address === undefined || address.endsWith('.local')) return 'c=IN IP4 0.0.0.0';
  return address.includes(':') ? `c=IN IP6 ${address}` : `c=IN IP4 ${address}`;
}

/** A complete SDP that Chrome, Firefox and libwebrtc accept as a remote description. */
export function buildSdp(e: SdpEssentials): string {
  const first = e.candidates[0];
  const lines = [
    'v=0',
    // The session id only has to be stable within this description.
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    `a=group:BUNDLE ${e.mid}`,
    'a=msid-semantic: WMS',
    `m=application ${first?.port ?? 9} UDP/DTLS/SCTP webrtc-datachannel`,
    connectionLine(first?.address),
    ...e.candidates.map((c, i) => `a=candidate:${i + 1} 1 udp ${hostPriority(i)} ${c.address} ${c.port} typ host generation 0`),
    `a=ice-ufrag:${e.iceUfrag}`,
    `a=ice-pwd:${e.icePwd}`,
    `a=fingerprint:${e.fingerprintHash} ${Array.from(e.fingerprint, hex2).join(':')}`,
    `a=setup:${e.setup}`,
    `a=mid:${e.mid}`,
    'a=sctp-port:5000',
    // Our frames are far smaller; declared so that the default of 64 KiB is not assumed.
    'a=max-message-size:262144',
  ];
  return lines.join('\r\n') + '\r\n';
}
