// Behind proxies the operator runs (PACTO_TRUST_PROXY=N), a client's address is the entry N from
// the right of X-Forwarded-For: each proxy appends the address it was reached from, and anything
// further left is whatever the client wrote. A stranger who sends his own X-Forwarded-For cannot
// pick the address his limits are counted against; without proxies the header is ignored.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/net/signal/guard';

const req = (remote: string, forwarded?: string | string[]): IncomingMessage =>
  ({ socket: { remoteAddress: remote }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('the address limits count against', () => {
  it('no trusted proxy: the socket address, whatever the header says', () => {
    expect(addressKey(req('203.0.113.9', '1.2.3.4'))).toBe('203.0.113.9');
    expect(addressKey(req('203.0.113.9', '1.2.3.4'), 0)).toBe('203.0.113.9');
  });

  it('one proxy (Caddy): the last entry, not one the client wrote before it', () => {
    // The client sent "X-Forwarded-For: 9.9.9.9"; Caddy appended the address it saw.
    expect(addressKey(req('127.0.0.1', '9.9.9.9, 198.51.100.7'), 1)).toBe('198.51.100.7');
    expect(addressKey(req('127.0.0.1', '9.9.9.9, 198.51.100.7'), true)).toBe('198.51.100.7');
  });

  it('two proxies (a CDN, then Caddy): the second from the right', () => {
    expect(addressKey(req('127.0.0.1', '9.9.9.9, 198.51.100.7, 192.0.2.50'), 2)).toBe('198.51.100.7');
    // Repeated headers count as one list.
    expect(addressKey(req('127.0.0.1', ['9.9.9.9', '198.51.100.7, 192.0.2.50']), 2)).toBe('198.51.100.7');
  });

  it('an entry that is not an address is never used; IPv6 counts per /64', () => {
    expect(addressKey(req('127.0.0.1', 'evil, not-an-ip'), 1)).toBe('127.0.0.1');
    expect(addressKey(req('127.0.0.1', '2001:db8:1:2:3:4:5:6'), 1)).toBe('2001:db8:1:2::/64');
  });
});
