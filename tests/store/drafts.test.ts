// Drafts and the keys of sealed commits survive a reload in the middle of a phase.
import { describe, expect, it } from 'vitest';
import nacl from 'tweetnacl';
import { newProfile } from './helpers';

const spring = { gameId: 'g', phase: '1901-spring-movement', power: 'france' };
const orders = [
  { kind: 'move', unit: { type: 'A', power: 'france', loc: 'par' }, to: 'bur' },
  { kind: 'hold', unit: { type: 'F', power: 'france', loc: 'bre' } },
];

describe('drafts', () => {
  it('keep draft orders and every sealing key across a reload', async () => {
    const profile = newProfile();
    const store = await profile.open();
    await store.saveDraftOrders(spring, orders, 1000);
    const first = { key: nacl.randomBytes(32), nonce: nacl.randomBytes(24), hash: 'aa11', created: 1001 };
    const second = { key: nacl.randomBytes(32), nonce: nacl.randomBytes(24), hash: 'bb22', created: 1002 };
    await store.addSeal(spring, first);
    await store.addSeal(spring, second);
    store.close(); // the "crash"

    const after = await profile.open();
    const draft = await after.getDraft(spring);
    expect(draft?.orders).toEqual(orders);
    expect(draft?.seals.map((s) => s.hash)).toEqual(['aa11', 'bb22']);
    expect(draft?.seals[0]?.key).toBeInstanceOf(Uint8Array);
    expect(Array.from(draft!.seals[0]!.key)).toEqual(Array.from(first.key));
    expect(Array.from(draft!.seals[1]!.nonce!)).toEqual(Array.from(second.nonce));
    after.close();
  });

  it('saving new draft orders keeps the seals, and phases and powers stay apart', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const seal = { key: new Uint8Array(32).fill(7), hash: 'cc33', created: 5 };
    await store.addSeal(spring, seal);
    await store.saveDraftOrders(spring, [orders[0]], 6);
    await store.saveDraftOrders({ ...spring, power: 'england' }, [], 7);
    await store.saveDraftOrders({ ...spring, phase: '1901-fall-movement' }, orders, 8);
    await store.saveDraftOrders({ ...spring, gameId: 'other' }, orders, 9);
    store.close();

    const after = await profile.open();
    const draft = await after.getDraft(spring);
    expect(draft?.orders).toEqual([orders[0]]);
    expect(draft?.seals).toHaveLength(1);
    const all = await after.listDrafts('g');
    expect(all.map((d) => `${d.phase}/${d.power}`)).toEqual(['1901-fall-movement/france', '1901-spring-movement/england', '1901-spring-movement/france']);
    await after.deleteDraft({ ...spring, power: 'england' });
    expect(await after.getDraft({ ...spring, power: 'england' })).toBeUndefined();
    expect(await after.listDrafts('g')).toHaveLength(2);
    after.close();
  });

  it('seal with its orders in one write: earlier seals kept, a refused seal changes neither', async () => {
    const profile = newProfile();
    const store = await profile.open();
    await store.saveDraftOrders(spring, orders, 1000);
    await store.addSeal(spring, { key: new Uint8Array(32).fill(1), hash: 'aa11', created: 1001 });
    const sealed = { draft: [orders[0]], sealed: [orders[0]] };
    await store.addSeal(spring, { key: new Uint8Array(32).fill(2), hash: 'bb22', created: 1002 }, { orders: sealed, now: 1003 });
    await expect(store.addSeal(spring, { key: new Uint8Array(31), hash: 'cc33', created: 1004 }, { orders: [], now: 1005 })).rejects.toThrow(
      /key has 31 bytes/,
    );
    store.close();

    const after = await profile.open();
    const draft = await after.getDraft(spring);
    expect(draft?.orders).toEqual(sealed);
    expect(draft?.seals.map((s) => s.hash)).toEqual(['aa11', 'bb22']);
    expect(draft?.updated).toBe(1003);
    after.close();
  });

  it('a seal kept ahead under another name is replaced, in the same write, by the record naming its commit', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const key = nacl.randomBytes(32);
    await store.addSeal(spring, { key: new Uint8Array(32).fill(1), hash: 'aa11', created: 1001 });
    await store.addSeal(spring, { key, hash: 'escrow:tag', created: 1002 });
    store.close(); // a crash after the secret was kept ahead: it is on disk
    const mid = await profile.open();
    expect((await mid.getDraft(spring))?.seals.map((s) => s.hash)).toEqual(['aa11', 'escrow:tag']);
    await mid.addSeal(spring, { key, nonce: nacl.randomBytes(24), hash: 'bb22', created: 1003 }, { orders, now: 1003 }, 'escrow:tag');
    mid.close();

    const after = await profile.open();
    const draft = await after.getDraft(spring);
    expect(draft?.seals.map((s) => s.hash)).toEqual(['aa11', 'bb22']);
    expect(Array.from(draft!.seals[1]!.key)).toEqual(Array.from(key));
    after.close();
  });

  it('refuses a sealing key of the wrong length', async () => {
    const store = await newProfile().open();
    await expect(store.addSeal(spring, { key: new Uint8Array(31), hash: 'x', created: 1 })).rejects.toThrow(/key has 31 bytes/);
    expect(await store.getDraft(spring)).toBeUndefined();
    store.close();
  });
});
