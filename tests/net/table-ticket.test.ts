// The app's table codes: a pairing code tagged with its game, and the greeting on a new link.
// Bytes from a stranger (another game's QR code, something that is not a Pacto code, a peer that
// greets with garbage) are refused with a clear error and change nothing.
import { describe, expect, it } from 'vitest';
import { encodePairingCode } from '../../src/net/table/pairing-code';
import { checkTicketGame, decodeTicket, encodeTicket, gameTag, parseTicketText, ticketText, TicketError } from '../../src/net/table/ticket';
import { decodeHello, greet } from '../../src/net/table/hello';
import { tableError } from '../../src/ui/game/table-strings';
import { createPipe } from './table-pipe';

const code = (type: 'offer' | 'answer') =>
  encodePairingCode({
    type,
    slot: 3,
    iceUfrag: 'abcd',
    icePwd: 'abcdefghijklmnopqrstuv',
    fingerprintHash: 'sha-256',
    fingerprint: new Uint8Array(32).fill(7),
    setup: type === 'offer' ? 'actpass' : 'active',
    mid: '0',
    candidates: [{ address: '192.168.1.20', port: 50000 }],
  });

function problem(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof TicketError ? e.problem : `not a TicketError: ${String(e)}`;
  }
  return undefined;
}

describe('table tickets', () => {
  it('carry the game tag and the pairing code, and survive the text form', () => {
    const t = encodeTicket('game-one-12345', code('offer'));
    expect(t.length).toBe(code('offer').length + 5);
    const back = decodeTicket(parseTicketText(`  ${ticketText(t).slice(0, 20)}\n${ticketText(t).slice(20)} `), 'offer');
    expect(back.tag).toEqual(gameTag('game-one-12345'));
    expect(back.pairing.slot).toBe(3);
    expect(back.code).toEqual(code('offer'));
  });

  it('a QR code of another game is refused as such; a newcomer fits any game', () => {
    const other = decodeTicket(encodeTicket('game-two-12345', code('offer')));
    expect(problem(() => checkTicketGame(other, 'game-one-12345'))).toBe('other-game');
    expect(problem(() => checkTicketGame(other, 'game-two-12345'))).toBeUndefined();
    // A phone with no game follows whoever invites it; an answer from a newcomer has no tag.
    expect(problem(() => checkTicketGame(other, undefined))).toBeUndefined();
    const newcomer = decodeTicket(encodeTicket(undefined, code('answer')));
    expect(newcomer.tag).toBeUndefined();
    expect(problem(() => checkTicketGame(newcomer, 'game-one-12345'))).toBeUndefined();
  });

  it('the other kind of code, a bare pairing code, an invite link or garbage are refused', () => {
    expect(problem(() => decodeTicket(encodeTicket('g-12345678', code('answer')), 'offer'))).toBe('wrong-kind');
    expect(problem(() => decodeTicket(code('offer')))).toBe('not-pacto');
    expect(problem(() => decodeTicket(new TextEncoder().encode('https://pacto.example/#v=1&g=abc')))).toBe('not-pacto');
    const t = encodeTicket('g-12345678', code('offer'));
    expect(problem(() => decodeTicket(t.subarray(0, 9)))).toBe('not-pacto');
    expect(problem(() => parseTicketText('not a code!'))).toBe('not-pacto');
  });

  it('every failure reads as a clear sentence in both languages', () => {
    const cases: [unknown, string][] = [
      [new TicketError('other-game', 'x'), 'another game'],
      [new TicketError('not-pacto', 'x'), 'not a Pacto'],
      [Object.assign(new Error('denied'), { name: 'NotAllowedError' }), 'permission refused'],
      [Object.assign(new Error('none'), { name: 'NotFoundError' }), 'no camera'],
      [new Error('the phones could not reach each other'), 'same Wi-Fi'],
      [Object.assign(new Error('Ice connection failed.'), { code: 'ERR_ICE_CONNECTION_FAILURE' }), 'same Wi-Fi'],
    ];
    for (const [e, en] of cases) {
      expect(tableError(e, 'en')).toContain(en);
      expect(tableError(e, 'es')).not.toBe(tableError(e, 'en'));
    }
  });
});

describe('the greeting on a new table link', () => {
  it("each side learns the other's key and game; later messages pass through unchanged", async () => {
    const [a, b] = createPipe();
    const [ga, gb] = await Promise.all([greet(a, { v: 1, key: 'k-a', gameId: 'g-1', invite: 'https://x/#v=1' }), greet(b, { v: 1, key: 'k-b' })]);
    expect(ga.hello).toEqual({ v: 1, key: 'k-b' });
    expect(gb.hello).toEqual({ v: 1, key: 'k-a', gameId: 'g-1', invite: 'https://x/#v=1' });
    ga.link.send(Uint8Array.of(0, 1, 2));
    await new Promise((r) => setTimeout(r, 10));
    // Sent before b listened: kept for the listener.
    const got: number[][] = [];
    gb.link.onMessage((m) => got.push([...m]));
    expect(got).toEqual([[0, 1, 2]]);
  });

  it('a peer that greets with bytes no Pacto phone sends is refused and the link closed', async () => {
    for (const first of [
      Uint8Array.of(0, 0, 0),
      new TextEncoder().encode('H{"v":2,"key":"x"}'),
      Uint8Array.of(0x48, 0xff, 0xfe),
      new Uint8Array(5000).fill(0x48),
    ]) {
      const [a, b] = createPipe();
      const greeting = greet(a, { v: 1, key: 'k-a' });
      b.send(first);
      await expect(greeting).rejects.toThrow(/greet/);
      expect(a.open).toBe(false);
    }
    expect(() => decodeHello(Uint8Array.of(0x48, ...new TextEncoder().encode('{"v":1,"key":7}')))).toThrow();
  });
});
