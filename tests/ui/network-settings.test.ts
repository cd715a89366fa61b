// The game's connection settings (Game tab): ICE servers written back into the lines the form
// reads give the same servers again, and the section renders in both languages with the game's
// stored relays and servers, or not at all for a session that cannot change them.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatIceServerLines, parseIceServerLines, type IceServer } from '../../src/net/settings';
import { NetworkSettings } from '../../src/ui/game/screens/NetworkSettings';
import { NETWORK_STRINGS } from '../../src/ui/game/screens/network-strings';
import type { GameSession } from '../../src/ui/game/session';

const SERVERS: IceServer[] = [
  { urls: ['stun:127.0.0.1:3478'] },
  { urls: ['turn:turn.example:3478?transport=udp'], username: 'pacto', credential: 's3cret' },
  { urls: ['turn:a.example:3478', 'turns:a.example:5349'], username: 'u', credential: 'with space' },
  { urls: ['turn:b.example:3478'], username: 'only-user' },
];

describe('game connection settings', () => {
  it('ICE servers survive being written as lines and read back', () => {
    const text = formatIceServerLines(SERVERS);
    expect(text.split('\n')).toHaveLength(SERVERS.length);
    expect(text.split('\n')[1]).toBe('turn:turn.example:3478?transport=udp pacto s3cret');
    expect(parseIceServerLines(text)).toEqual(SERVERS);
    expect(formatIceServerLines([])).toBe('');
  });

  it('shows the stored relays and servers in both languages, and nothing without setNetwork', () => {
    const base = {
      network: { relays: ['wss://relay.example/relay', 'ws://127.0.0.1:9/relay'], iceServers: SERVERS.slice(0, 2) },
      setNetwork: async () => undefined,
    };
    for (const lang of ['es', 'en'] as const) {
      const html = renderToStaticMarkup(createElement(NetworkSettings, { session: base as unknown as GameSession, lang }))
        .replace(/&#x27;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      const t = NETWORK_STRINGS[lang];
      for (const s of [t.title, t.save]) expect(html).toContain(s);
      expect(html).toContain('wss://relay.example/relay\nws://127.0.0.1:9/relay');
      expect(html).toContain('turn:turn.example:3478?transport=udp pacto s3cret');
      expect(html).not.toMatch(/undefined|\[object|NaN/);
    }
    expect(Object.keys(NETWORK_STRINGS.en).sort()).toEqual(Object.keys(NETWORK_STRINGS.es).sort());
    expect(renderToStaticMarkup(createElement(NetworkSettings, { session: { network: base.network } as unknown as GameSession, lang: 'en' }))).toBe('');
  });
});
