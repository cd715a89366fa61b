// The pairing code: a browser's SDP in, the same essential facts out, in a code small enough for a
// QR code a phone reads at arm's length; and a rebuilt SDP that a real WebRTC stack accepts.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import wrtc from '@roamhq/wrtc';
import { SdpError, buildSdp, decodePairingCode, encodePairingCode, parseSdp, qrSize, type PairingCode, type SdpEssentials } from '../../src/net/table';
import { CHROME_OFFER_IP, CHROME_OFFER_MDNS, FIREFOX_ANSWER } from './table-sdp-fixtures';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Only what a peer needs; compared field by field so a dropped fact shows up by name. */
function facts(e: SdpEssentials) {
  return {
    type: e.type,
    ufrag: e.iceUfrag,
    pwd: e.icePwd,
    fingerprint: `${e.fingerprintHash} ${hex(e.fingerprint)}`,
    setup: e.setup,
    mid: e.mid,
    candidates: e.candidates.map((c) => `${c.address} ${c.port}`),
  };
}

describe('parseSdp', () => {
  it('keeps the ICE credentials, fingerprint, setup role and UDP host candidates of Chrome', () => {
    expect(facts(parseSdp('offer', CHROME_OFFER_IP))).toEqual({
      type: 'offer',
      ufrag: '1SIp',
      pwd: 'PMFPgrv4+ySIJhxlTyNlUFpA',
      fingerprint: 'sha-256 9a6677f21556fee7b39af1d219a6a58da9cdfd57a3dbf6b50414b3edc36bc3c7',
      setup: 'actpass',
      mid: '0',
      // The TCP candidate is useless without a server and is dropped.
      candidates: ['192.0.2.2 57138', 'fd00::2 57376'],
    });
  });

  it('reads Firefox: session-level fingerprint, upper-case transport, RTCP component dropped', () => {
    const f = facts(parseSdp('answer', FIREFOX_ANSWER));
    expect(f.setup).toBe('active');
    expect(f.fingerprint.startsWith('sha-256 4f1d8a09')).toBe(true);
    expect(f.candidates).toEqual(['198.51.100.34 49760', '2001:db8:0:0:0:0:0:7 49761']);
  });

  it('rejects an SDP with no data channel or no credentials', () => {
    expect(() => parseSdp('offer', 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n')).toThrow(SdpError);
    expect(() => parseSdp('offer', CHROME_OFFER_MDNS.replace(/a=ice-pwd:.*\n/, ''))).toThrow(/ice-pwd/);
    expect(() => parseSdp('offer', CHROME_OFFER_MDNS.replace('sha-256 B5:B2', 'sha-256 B5'))).toThrow(/fingerprint/);
  });
});

describe('pairing code round trip', () => {
  const cases: [string, 'offer' | 'answer', string][] = [
    ['Chrome offer, mDNS', 'offer', CHROME_OFFER_MDNS],
    ['Chrome offer, IPv4 + IPv6', 'offer', CHROME_OFFER_IP],
    ['Firefox answer', 'answer', FIREFOX_ANSWER],
  ];

  for (const [name, type, sdp] of cases) {
    it(`${name}: code and rebuilt SDP carry the same facts`, () => {
      const parsed = parseSdp(type, sdp);
      const code = encodePairingCode({ ...parsed, slot: 7 });
      const decoded = decodePairingCode(code);
      expect(decoded.slot).toBe(7);
      const canonical = (e: SdpEssentials) => ({
        ...facts(e),
        candidates: facts(e).candidates.map((c) => c.replace('2001:db8:0:0:0:0:0:7', '2001:db8::7')),
      });
      expect(facts(decoded)).toEqual(canonical(parsed));
      expect(facts(parseSdp(type, buildSdp(decoded)))).toEqual(canonical(parsed));
    });
  }

  it('fits a Chrome offer in a QR code of version 5 (IP candidates) or 6 (mDNS candidates)', () => {
    const withIps = encodePairingCode({ ...parseSdp('offer', CHROME_OFFER_IP), slot: 0 });
    // 3 header + 4 ufrag + 19 pwd + 32 fingerprint + IPv4 (1 + 4 + 2) + IPv6 (1 + 16 + 2).
    expect(withIps.length).toBe(84);
    expect(qrSize(withIps)).toEqual({ version: 5, modules: 37 });
    const withMdns = encodePairingCode({ ...parseSdp('offer', CHROME_OFFER_MDNS), slot: 0 });
    // Two mDNS names of 16 bytes each.
    expect(withMdns.length).toBe(96);
    expect(qrSize(withMdns)).toEqual({ version: 6, modules: 41 });
    expect(withMdns.length).toBeLessThan(CHROME_OFFER_MDNS.length / 6);
  });

  it('round-trips any well-formed essentials', () => {
    const iceChars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
    const ice = (min: number, max: number) => fc.array(iceChars, { minLength: min, maxLength: max }).map((a) => a.join(''));
    const hostCandidate = fc.record({
      address: fc.oneof(
        fc.ipV4(),
        fc.uuid().map((u) => `${u}.local`),
        fc
          .uint8Array({ minLength: 16, maxLength: 16 })
          .map((b) => Array.from({ length: 8 }, (_, i) => ((b[2 * i]! << 8) | b[2 * i + 1]!).toString(16)).join(':')),
      ),
      port: fc.integer({ min: 1, max: 65535 }),
    });
    const code = fc.record({
      type: fc.constantFrom('offer' as const, 'answer' as const),
      slot: fc.integer({ min: 0, max: 255 }),
      iceUfrag: ice(4, 32),
      icePwd: ice(22, 64),
      fingerprintHash: fc.constant('sha-256' as const),
      fingerprint: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      setup: fc.constantFrom('actpass' as const, 'active' as const, 'passive' as const),
      mid: fc.constantFrom('0', '1', 'data'),
      candidates: fc.array(hostCandidate, { minLength: 1, maxLength: 8 }),
    });
    fc.assert(
      fc.property(code, (c: PairingCode) => {
        const back = decodePairingCode(encodePairingCode(c));
        // Encoding the decoded code again gives the same bytes: nothing was lost or reinterpreted.
        expect(encodePairingCode(back)).toEqual(encodePairingCode(c));
        expect({ ...back, fingerprint: hex(back.fingerprint), candidates: back.candidates.length }).toEqual({
          ...c,
          fingerprint: hex(c.fingerprint),
          candidates: c.candidates.length,
        });
        expect(back.candidates.map((x) => x.port)).toEqual(c.candidates.map((x) => x.port));
      }),
    );
  });

  it('rejects codes that are not ours, truncated, padded or of a future version', () => {
    const good = encodePairingCode({ ...parseSdp('offer', CHROME_OFFER_IP), slot: 1 });
    expect(() => decodePairingCode(new TextEncoder().encode('https://example.org/'))).toThrow(/not a Pacto/);
    expect(() => decodePairingCode(good.subarray(0, good.length - 1))).toThrow(/truncated/);
    expect(() => decodePairingCode(Uint8Array.from([...good, 0]))).toThrow(/truncated/);
    expect(() => decodePairingCode(Uint8Array.from([...good, 9]))).toThrow(/candidate kind/);
    const future = good.slice();
    future[0] = 0x52;
    expect(() => decodePairingCode(future)).toThrow(/version/);
  });

  it('refuses to make a code with no candidate or a credential outside the ICE alphabet', () => {
    const parsed = parseSdp('offer', CHROME_OFFER_IP);
    expect(() => encodePairingCode({ ...parsed, slot: 0, candidates: [] })).toThrow(/no host candidate/);
    expect(() => encodePairingCode({ ...parsed, slot: 0, icePwd: 'has space in it 0123456789' })).toThrow(SdpError);
  });
});

describe('rebuilt SDP in a real WebRTC stack', () => {
  it('is accepted as a remote offer, and the answer to it parses back', async () => {
    for (const sdp of [CHROME_OFFER_MDNS, CHROME_OFFER_IP]) {
      const rebuilt = buildSdp(decodePairingCode(encodePairingCode({ ...parseSdp('offer', sdp), slot: 0 })));
      const pc = new wrtc.RTCPeerConnection({ iceServers: [] });
      try {
        await pc.setRemoteDescription({ type: 'offer', sdp: rebuilt });
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        const back = parseSdp('answer', answer.sdp ?? '');
        expect(back.setup).toBe('active');
        expect(back.mid).toBe('0');
      } finally {
        pc.close();
      }
    }
  });
});
