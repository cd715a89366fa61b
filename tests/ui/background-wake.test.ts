// The service worker's choices that need no browser: which game a push is for (its sealed hint
// opens under one game's key only; a push no game opens wakes nothing), quiet hours, and what the
// notification says, in each language.
import { describe, expect, it } from 'vitest';
import { sealPushHint } from '../../src/net/relay/client';
import { relayKeysFor } from '../../src/net/relay/keys';
import { gamesForPush } from '../../src/ui/background/wake';
import { composeNotification, inQuietHours, type GameGlance } from '../../src/ui/background/notification';
import { PUSH_HINT, wakesOthers } from '../../src/ui/game/wake-others';
import type { AppGameRecord } from '../../src/ui/game/records';
import type { GameView } from '../../src/protocol';
import { STARTING_POSITION } from '../../src/rules';

const game = (id: string, password: string, on = true): AppGameRecord => ({ id, title: id, created: 0, password, signaling: [], notify: { on } });
const A = game('game-aaaa-0001', 'password-aaaa-0001');
const B = game('game-bbbb-0002', 'password-bbbb-0002', false);
const C = game('game-cccc-0003', 'password-cccc-0003');

describe('which game a push is for', () => {
  it('the game whose key opens the hint, and only it (notifications on or not)', () => {
    expect(gamesForPush([A, B, C], sealPushHint(relayKeysFor(B.id, B.password), PUSH_HINT)).map((g) => g.id)).toEqual([B.id]);
    expect(gamesForPush([A, B, C], sealPushHint(relayKeysFor(A.id, A.password), PUSH_HINT)).map((g) => g.id)).toEqual([A.id]);
  });
  it('a hint of a game the device does not hold, or garbage, wakes nothing', () => {
    expect(gamesForPush([A, B, C], sealPushHint(relayKeysFor('game-zzzz-0009', 'password-zzzz-0009'), PUSH_HINT))).toEqual([]);
    expect(gamesForPush([A, B, C], new TextEncoder().encode('not a sealed hint of any game'))).toEqual([]);
    // Same game id, another password (a stranger's guess): not this game.
    expect(gamesForPush([A], sealPushHint(relayKeysFor(A.id, 'a-guessed-password-1'), PUSH_HINT))).toEqual([]);
  });
  it('an empty push wakes the games with notifications on', () => {
    expect(gamesForPush([A, B, C], null).map((g) => g.id)).toEqual([A.id, C.id]);
    expect(gamesForPush([A, B, C], new Uint8Array()).map((g) => g.id)).toEqual([A.id, C.id]);
  });
});

describe('waking the others', () => {
  it('everything but the ACK of a resolved phase wakes them', () => {
    for (const type of ['commit', 'final', 'lock', 'reveal', 'chat', 'start', 'lot-commit']) expect(wakesOthers({ type })).toBe(true);
    expect(wakesOthers({ type: 'ack', phase: 'start' })).toBe(true);
    expect(wakesOthers({ type: 'ack', phase: '1901-spring-movement' })).toBe(false);
  });
});

describe('quiet hours', () => {
  const at = (h: number) => new Date(2026, 0, 1, h, 30);
  it('within a day, and wrapping midnight', () => {
    expect(inQuietHours({ on: true, quiet: { from: 13, to: 15 } }, at(14))).toBe(true);
    expect(inQuietHours({ on: true, quiet: { from: 13, to: 15 } }, at(15))).toBe(false);
    expect(inQuietHours({ on: true, quiet: { from: 22, to: 7 } }, at(23))).toBe(true);
    expect(inQuietHours({ on: true, quiet: { from: 22, to: 7 } }, at(3))).toBe(true);
    expect(inQuietHours({ on: true, quiet: { from: 22, to: 7 } }, at(12))).toBe(false);
    expect(inQuietHours({ on: true }, at(3))).toBe(false);
  });
});

describe('the notification', () => {
  const spring = STARTING_POSITION;
  const fall = { ...spring, phase: { ...spring.phase, season: 'fall' as const } };
  const viewAt = (phases: number, position = spring, committed: string[] = []): GameView =>
    ({
      status: 'playing',
      phases: Array.from({ length: phases }, (_, i) => ({ key: `p${i}`, position: spring, stateHash: 'h' })),
      current: {
        key: `${position.phase.year}-${position.phase.season}-movement`,
        position,
        required: ['france', 'germany'],
        committed,
        deadline: 0,
        drawVoters: [],
      },
    }) as unknown as GameView;
  const glance = (view: GameView, incoming: GameGlance['incoming'] = []): GameGlance => ({ view, powers: ['france'], incoming });

  it('results in and orders due, in the player language, routed to the results', () => {
    const es = composeNotification('g1', glance(viewAt(0)), glance(viewAt(1, fall)), 'es')!;
    expect(es.body).toContain('Primavera 1901, movimientos: ya están los resultados.');
    expect(es.body).toContain('Te toca dar órdenes: Otoño 1901, movimientos');
    expect(es.tag).toBe('pacto-game-g1');
    expect(es.url).toBe('#/game/g1/results');
    const en = composeNotification('g1', glance(viewAt(0)), glance(viewAt(1, fall)), 'en')!;
    expect(en.body).toContain('Spring 1901, movement: results are in.');
    expect(en.body).toContain('Your orders are due: Fall 1901, movement');
  });
  it('a message names the sender only', () => {
    const n = composeNotification('g1', glance(viewAt(1)), glance(viewAt(1), [{ id: 'c1', fromPower: 'germany' }]), 'en')!;
    expect(n.body).toBe('New message from Germany.');
    expect(n.url).toBe('#/game/g1/press');
  });
  it('nothing new, nothing shown', () => {
    expect(composeNotification('g1', glance(viewAt(1)), glance(viewAt(1)), 'en')).toBeNull();
  });
});

describe('the open app wakes the others once the relays hold its entry', () => {
  it('sends after the outbox drains, once per batch, never for a plain ACK', async () => {
    const { RoomWaker } = await import('../../src/ui/game/wake-others');
    const w = new RoomWaker();
    let waiting = 1;
    let sent = 0;
    w.attach(
      async () => void sent++,
      () => waiting,
    );
    w.appended({ type: 'ack', phase: '1901-spring-movement' });
    waiting = 0;
    w.check();
    expect(sent).toBe(0);
    waiting = 1;
    w.appended({ type: 'reveal', phase: '1901-spring-movement' });
    w.appended({ type: 'ack', phase: '1901-spring-movement' });
    expect(sent).toBe(0);
    waiting = 0;
    w.check();
    w.check();
    expect(sent).toBe(1);
  });
});
