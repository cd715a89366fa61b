// A once-only message is written with its name, bytes and all, before it leaves (src/ui/game/outbox.ts
// send, src/protocol/README.md "Once-only messages"): a page killed right after that write, before
// the message reached anyone, leaves the name with the very bytes to send; the reopened page sends
// them and signs nothing new. Two tabs racing for one name: one entry, never two.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { acceptStart, type Signed, type Stamp } from '../../src/protocol';
import type { PactoStore } from '../../src/store';
import { Outbox } from '../../src/ui/game/outbox';
import { asAppRecord, GameRecordRef } from '../../src/ui/game/records';
import { payloadOf } from '../protocol/helpers';
import { unacceptedPhone } from './outbox-helpers';

const phone = (seed: number) => unacceptedPhone(seed, `pacto-kept-${seed}-${Math.random()}`);

/** The START acceptances by player 1 in the entry set. */
function accepts(p: Awaited<ReturnType<typeof phone>>): Uint8Array[] {
  return p.replica.entries().filter((e) => payloadOf(e).type === 'ack' && payloadOf(e).from === p.me.id);
}

describe('once-only messages kept with their name', () => {
  it('a page killed after the name and bytes landed, before sending: reopened, it sends those bytes and signs nothing', async () => {
    const p = await phone(31);
    // The page dies the moment the reservation holding the acceptance lands: its outbox is closed
    // from then on, so nothing it signed is published, as a page whose process was killed.
    let killed = false;
    const dying: PactoStore = {
      ...p.store,
      modifyReservation: async (id, change) => {
        const written = await p.store.modifyReservation(id, change);
        if (written?.kept?.some((k) => k.name === 'accept-start') === true) killed = true;
        return written;
      },
    };
    const page = new Outbox({
      store: dying,
      record: new GameRecordRef(dying, p.g.gameId, asAppRecord(await dying.getGame(p.g.gameId))!),
      log: p.replica,
      now: () => 0,
      lang: () => 'en',
      seqFloor: () => 10,
      published: () => undefined,
      closed: () => killed,
    });
    let signed: Signed | null = null;
    await page.send((stamp: Stamp) => (signed = acceptStart(p.me, p.g.gameId, p.start, stamp)), { once: 'accept-start' });
    expect(killed).toBe(true);
    expect(signed).not.toBeNull();
    expect(accepts(p), 'the killed page sent nothing').toHaveLength(0);

    // Reopened: the page sends every kept entry its log lacks, these very bytes.
    const reopened = await p.tab(p.store);
    await reopened.resendKeptWhere(() => true);
    expect(accepts(p)).toHaveLength(1);
    expect(p.replica.admission.has((signed as unknown as Signed).id)).toBe(true);
    // The duty, asked again, signs nothing new.
    let again = 0;
    expect(
      await reopened.send(
        (stamp) => {
          again++;
          return acceptStart(p.me, p.g.gameId, p.start, stamp);
        },
        { once: 'accept-start' },
      ),
    ).toBeNull();
    expect(again).toBe(0);
    expect(accepts(p)).toHaveLength(1);
    p.replica.destroy();
    p.store.close();
  });

  it('two tabs signing one once-only message at the same moment: exactly one leaves', async () => {
    const p = await phone(32);
    const [a, b] = [await p.tab(p.store), await p.tab(p.store)];
    const sign = (stamp: Stamp) => acceptStart(p.me, p.g.gameId, p.start, stamp);
    const sent = await Promise.all([a.send(sign, { once: 'accept-start' }), b.send(sign, { once: 'accept-start' })]);
    expect(sent.filter((s) => s !== null)).toHaveLength(1);
    await p.replica.flush();
    expect(accepts(p)).toHaveLength(1);
    // A third context (the service worker, a reload) finds the name and sends only the kept bytes.
    const c = await p.tab(p.store);
    expect(await c.send(sign, { once: 'accept-start' })).toBeNull();
    expect(accepts(p)).toHaveLength(1);
    p.replica.destroy();
    p.store.close();
  });
});
