// The plumbing's reading of typed network settings (src/ui/game/network-form.ts), which both the
// new-game form and the game's network settings call: good text gives the settings normalised by
// src/net/settings.ts; bad text gives every bad line, by field, and no settings; a list too long
// is refused as a whole. And the game's invite (src/ui/game/invite.ts): the link is the one the
// invite parser reads back, and its QR code is made from that link.
import { describe, expect, it } from 'vitest';
import { parseInvite } from '../../src/net/invite';
import { gameInvite, inviteLink } from '../../src/ui/game/invite';
import { MAX_NETWORK_LINES, networkText, readNetworkLines } from '../../src/ui/game/network-form';

describe('reading typed network settings', () => {
  it('good lines give the settings, normalised, and blank text gives none', () => {
    const r = readNetworkLines({
      signaling: ' wss://signal.example/ ',
      relays: 'wss://relay.example/\n\n wss://relay.example/relay \nws://127.0.0.1:9/relay',
      iceServers: 'stun:127.0.0.1:3478\nturn:t.example:3478 user secret',
    });
    expect(r).toEqual({
      ok: true,
      signaling: ['wss://signal.example/'],
      relays: ['wss://relay.example/relay', 'ws://127.0.0.1:9/relay'],
      iceServers: [{ urls: ['stun:127.0.0.1:3478'] }, { urls: ['turn:t.example:3478'], username: 'user', credential: 'secret' }],
    });
    expect(readNetworkLines({ signaling: '', relays: '\n', iceServers: '' })).toEqual({ ok: true, signaling: [], relays: [], iceServers: [] });
  });

  it('names every bad line by field, and gives no settings', () => {
    const r = readNetworkLines({
      signaling: 'http://signal.example/',
      relays: 'wss://ok.example/relay\nhttp://relay.example/relay\nnot an address',
      iceServers: 'stun:127.0.0.1:3478\nturn:t.example:3478 onlyauser',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.field, p.line])).toEqual([
      ['signaling', 'http://signal.example/'],
      ['relays', 'http://relay.example/relay'],
      ['relays', 'not an address'],
      ['iceServers', 'turn:t.example:3478 onlyauser'],
    ]);
    expect(r.problems.every((p) => p.reason.length > 0)).toBe(true);
    expect('relays' in r).toBe(false);
  });

  it('refuses more relays or ICE servers than an invite carries, naming no line', () => {
    const many = Array.from({ length: MAX_NETWORK_LINES + 1 }, (_, n) => `ws://127.0.0.${n + 1}:1/relay`).join('\n');
    const r = readNetworkLines({ relays: many, iceServers: '' });
    expect(r).toEqual({ ok: false, problems: [{ field: 'relays', line: null, reason: `${MAX_NETWORK_LINES + 1} > ${MAX_NETWORK_LINES}` }] });
    const four = Array.from({ length: MAX_NETWORK_LINES }, (_, n) => `ws://127.0.0.${n + 1}:1/relay`).join('\n');
    expect(readNetworkLines({ relays: four, iceServers: '' }).ok).toBe(true);
  });

  it('a game network written as lines reads back as the same network', () => {
    const network = {
      relays: ['wss://a.example/relay', 'ws://127.0.0.1:9/relay'],
      iceServers: [{ urls: ['turn:a.example:3478', 'turns:a.example:5349'], username: 'u', credential: 'with space' }, { urls: ['stun:127.0.0.1:3478'] }],
    };
    const text = networkText(network);
    const r = readNetworkLines(text);
    expect(r).toEqual({ ok: true, signaling: [], relays: network.relays, iceServers: network.iceServers });
    expect(networkText(undefined)).toEqual({ relays: '', iceServers: '' });
  });
});

describe("a game's invite", () => {
  const record = { password: 'abcdefghijklmnopqrstuv', signaling: ['wss://signal.example/'] };

  it('carries the game, its room password, signaling and network, and parses back', () => {
    const network = { relays: ['wss://r.example/relay'], iceServers: [{ urls: ['stun:127.0.0.1:3478'] }] };
    const link = inviteLink('game-id-0123456789', record, network, 'https://pacto.example/app/#/old');
    expect(link.startsWith('https://pacto.example/app/#')).toBe(true);
    expect(parseInvite(link)).toEqual({
      gameId: 'game-id-0123456789',
      password: record.password,
      signaling: record.signaling,
      relays: network.relays,
      iceServers: network.iceServers,
      appUrl: 'https://pacto.example/app/',
    });
    // No relays or ICE servers of its own: the invite names none.
    const bare = parseInvite(inviteLink('game-id-0123456789', record, { relays: [], iceServers: [] }, 'https://pacto.example/'));
    expect('relays' in bare || 'iceServers' in bare).toBe(false);
  });

  it('shows the link and a QR code of it', async () => {
    const link = inviteLink('game-id-0123456789', record, { relays: [], iceServers: [] }, 'https://pacto.example/');
    const invite = gameInvite(link);
    expect(invite.link).toBe(link);
    const svg = await invite.qrSvg();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(await invite.qrSvg()).toBe(svg);
    expect(await gameInvite(`${link}x`).qrSvg()).not.toBe(svg);
  });
});
