// Invite links: secrets only in the fragment, strict parsing with clear errors, a QR code that
// decodes back to the same link.
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { connectOptionsFor, formatInvite, inviteQrDataUrl, inviteQrModules, inviteQrSvg, InviteError, newRoomPassword, parseInvite } from '../../src/net';

const invite = { gameId: '0123456789abcdef0123456789abcdef', password: 'Zm9vYmFyYmF6cXV4LXh5', signaling: ['ws://192.168.1.20:8080/'] };

/** Draws the modules as RGBA pixels with a quiet zone, as a camera frame would show them. */
function render(modules: boolean[][], scale = 4, quiet = 4): { data: Uint8ClampedArray; size: number } {
  const size = (modules.length + 2 * quiet) * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (!dark) return;
      for (let y = 0; y < scale; y++)
        for (let x = 0; x < scale; x++) {
          const i = (((r + quiet) * scale + y) * size + (c + quiet) * scale + x) * 4;
          data[i] = data[i + 1] = data[i + 2] = 0;
        }
    }),
  );
  return { data, size };
}

describe('invite links', () => {
  it('round-trips, with every secret in the fragment only', () => {
    const link = formatInvite('https://pacto.example/app/?x=1#old', invite);
    const url = new URL(link);
    expect(url.origin + url.pathname + url.search).toBe('https://pacto.example/app/?x=1');
    for (const secret of [invite.gameId, invite.password, '192.168.1.20']) {
      expect(url.origin + url.pathname + url.search).not.toContain(secret);
      expect(decodeURIComponent(url.hash)).toContain(secret);
    }
    expect(parseInvite(link)).toEqual({ ...invite, appUrl: 'https://pacto.example/app/?x=1' });
    expect(parseInvite(url.hash)).toEqual({ ...invite, appUrl: '' });
  });

  it('allows no signaling address (the app host) or several', () => {
    const none = parseInvite(formatInvite('http://127.0.0.1:5173/', { ...invite, signaling: [] }));
    expect(none.signaling).toEqual([]);
    const two = parseInvite(formatInvite('http://127.0.0.1:5173/', { ...invite, signaling: ['wss://a.example/', 'ws://b.example:9/x'] }));
    expect(two.signaling).toEqual(['wss://a.example/', 'ws://b.example:9/x']);
  });

  it.each([
    ['https://pacto.example/', 'nothing after "#"'],
    ['https://pacto.example/#g=abc', 'carries no invite'],
    ['https://pacto.example/#v=2&g=0123456789abcdef&k=aaaaaaaaaaaaaaaaaaaa', 'version 2'],
    ['https://pacto.example/#v=1&k=aaaaaaaaaaaaaaaaaaaa', 'no game id'],
    ['https://pacto.example/#v=1&g=0123456789abcdef', 'no room password'],
    ['https://pacto.example/#v=1&g=0123456789abcdef&g=0123456789abcdee&k=aaaaaaaaaaaaaaaaaaaa', 'more than one game id'],
    ['https://pacto.example/#v=1&g=bad id!&k=aaaaaaaaaaaaaaaaaaaa', 'game id must be'],
    ['https://pacto.example/#v=1&g=0123456789abcdef&k=short', 'room password must be'],
    ['https://pacto.example/#v=1&g=0123456789abcdef&k=aaaaaaaaaaaaaaaaaaaa&s=http://x.example/', 'ws:// or wss://'],
    ['https://pacto.example/#v=1&g=0123456789abcdef&k=aaaaaaaaaaaaaaaaaaaa&s=nonsense', 'not a signaling address'],
    ['http://[bad', 'not a valid link'],
  ])('rejects %s', (link, message) => {
    expect(() => parseInvite(link)).toThrow(InviteError);
    expect(() => parseInvite(link)).toThrow(message);
  });

  it('refuses to format a bad invite or a non-web app address', () => {
    expect(() => formatInvite('ftp://x.example/', invite)).toThrow(InviteError);
    expect(() => formatInvite('https://x.example/', { ...invite, password: 'x' })).toThrow('room password');
  });

  it('makes fresh 128-bit passwords that an invite accepts', () => {
    const a = newRoomPassword();
    const b = newRoomPassword();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parseInvite(formatInvite('https://x.example/', { ...invite, password: a })).password).toBe(a);
  });

  it('draws a QR code that decodes to the same link', async () => {
    const link = formatInvite('https://pacto.example/', { ...invite, password: newRoomPassword() });
    const { data, size } = render(inviteQrModules(link));
    expect(jsQR(data, size, size)?.data).toBe(link);
    const svg = await inviteQrSvg(link);
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 (\d+) \1"/);
    expect(Number(/viewBox="0 0 (\d+)/.exec(svg)![1])).toBe(inviteQrModules(link).length + 4);
    expect(await inviteQrDataUrl(link)).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
  });

  it('finds peers through the invite, else the settings, else the app host', () => {
    const page = { protocol: 'https:', host: 'pacto.example:8443' };
    const bare = { ...invite, signaling: [] };
    expect(connectOptionsFor(invite, { signaling: ['wss://mine.example/'] }, page).signaling).toEqual(invite.signaling);
    expect(connectOptionsFor(bare, { signaling: ['wss://mine.example/'] }, page).signaling).toEqual(['wss://mine.example/']);
    expect(connectOptionsFor(bare, {}, page).signaling).toEqual(['wss://pacto.example:8443/']);
    expect(connectOptionsFor(bare, {}, { protocol: 'http:', host: '127.0.0.1:5173' }).signaling).toEqual(['ws://127.0.0.1:5173/']);
    expect(connectOptionsFor(bare).signaling).toEqual([]);
    expect(connectOptionsFor(bare, {}, page).iceServers).toEqual([]); // no public STUN unless set
    const turn = [{ urls: 'turn:turn.example:3478', username: 'u', credential: 'c' }];
    expect(connectOptionsFor(bare, { iceServers: turn }, page).iceServers).toEqual(turn);
  });

  it('carries ICE servers and relays for every phone of the game; old invites parse as before', () => {
    const turn = { urls: ['turn:turn.example:3478?transport=udp'], username: 'pacto', credential: 'p&ss=w|rd' };
    const stun = { urls: 'stun:stun.example:3478' };
    const full = { ...invite, iceServers: [turn, stun], relays: ['wss://relay.example/relay', 'ws://10.0.0.2:4444/'] };
    const parsed = parseInvite(formatInvite('https://pacto.example/', full));
    expect(parsed.iceServers).toEqual([turn, { urls: ['stun:stun.example:3478'] }]);
    expect(parsed.relays).toEqual(['wss://relay.example/relay', 'ws://10.0.0.2:4444/relay']);
    // A link made before these fields existed: the same invite, with neither field.
    const old = 'https://pacto.example/#v=1&g=0123456789abcdef0123456789abcdef&k=Zm9vYmFyYmF6cXV4LXh5&s=ws%3A%2F%2F192.168.1.20%3A8080%2F';
    expect(parseInvite(old)).toEqual({ ...invite, appUrl: 'https://pacto.example/' });
    expect(parseInvite(old)).not.toHaveProperty('iceServers');
  });

  it.each([
    ['i=nope', 'not JSON'],
    ['i=%5B1%5D', 'not an object'],
    ['i=%7B%22urls%22%3A%22http%3A%2F%2Fx%22%7D', 'stun: or turn:'],
    ['i=%7B%22urls%22%3A%5B%5D%7D', 'at least one address'],
    ['i=%7B%22urls%22%3A%22turn%3Ax%22%2C%22username%22%3A5%7D', 'user name is text'],
    ['r=https%3A%2F%2Frelay.example%2F', 'ws:// or wss://'],
    ['r=wss%3A%2F%2Frelay.example%2F%3Fx%3D1', 'no query'],
    ['r=a&r=b&r=c&r=d&r=e', 'at most 4 relays'],
  ])('rejects an invite with %s', (extra, message) => {
    const link = `https://pacto.example/#v=1&g=0123456789abcdef&k=aaaaaaaaaaaaaaaaaaaa&${extra}`;
    expect(() => parseInvite(link)).toThrow(InviteError);
    expect(() => parseInvite(link)).toThrow(message);
  });

  it("uses the invite's ICE servers over the device's, and every named relay (else the app host's)", () => {
    const page = { protocol: 'https:', host: 'pacto.example' };
    const mine = [{ urls: 'turn:mine.example' }];
    const theirs = [{ urls: ['turn:game.example'] }];
    expect(connectOptionsFor({ ...invite, iceServers: theirs }, { iceServers: mine }, page).iceServers).toEqual(theirs);
    expect(connectOptionsFor(invite, { iceServers: mine }, page).iceServers).toEqual(mine);
    expect(connectOptionsFor(invite, {}, page).relays).toEqual(['wss://pacto.example/relay']);
    expect(connectOptionsFor(invite).relays).toEqual([]);
    expect(
      connectOptionsFor({ ...invite, relays: ['wss://a.example/relay'] }, { relays: ['wss://b.example/relay', 'wss://a.example/relay'] }, page).relays,
    ).toEqual(['wss://a.example/relay', 'wss://b.example/relay']);
  });
});
