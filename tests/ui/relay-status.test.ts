// The relay line of the lobby and the game screen says, in both languages, when a relay has been set
// aside for sending what no honest relay sends (src/net/relay/client.ts misbehaved), beside the
// connected count and the uploads waiting; and says nothing of it when no relay misbehaves.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RelayStatus } from '../../src/ui/game/RelayStatus';
import type { NetStatus } from '../../src/ui/game/session';

const net = (misbehaving: number): NetStatus => ({
  peers: 0,
  synced: false,
  online: true,
  relays: { total: 2, connected: 1, waiting: 0, caughtUp: 1, misbehaving },
});

describe('the relay line', () => {
  it('names a misbehaving relay in English and Spanish, and only then', () => {
    const en = renderToStaticMarkup(createElement(RelayStatus, { net: net(1), lang: 'en' }));
    const es = renderToStaticMarkup(createElement(RelayStatus, { net: net(2), lang: 'es' }));
    expect(en).toContain('a relay answers strangely and is set aside');
    expect(en).toContain('data-relays-misbehaving="1"');
    expect(es).toContain('2 relés responden de forma anómala y se dejan de lado');
    const calm = renderToStaticMarkup(createElement(RelayStatus, { net: net(0), lang: 'en' }));
    expect(calm).not.toContain('strangely');
  });
});
