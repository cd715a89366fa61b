// The device's identity keys and settings: created once, kept across reloads.
import { describe, expect, it } from 'vitest';
import nacl from 'tweetnacl';
import { newProfile } from './helpers';

describe('identity keys', () => {
  it('are made once from the given randomness and come back after a reload', async () => {
    const profile = newProfile();
    const store = await profile.open();
    expect(await store.getIdentityKeys()).toBeUndefined();
    let calls = 0;
    const random = (n: number) => {
      calls++;
      return nacl.randomBytes(n);
    };
    const made = await store.ensureIdentityKeys(random, 42);
    expect(calls).toBe(2);
    expect(made.signSeed).toHaveLength(32);
    const again = await store.ensureIdentityKeys(random, 43);
    expect(calls).toBe(2);
    expect(Array.from(again.signSeed)).toEqual(Array.from(made.signSeed));
    store.close();

    const after = await profile.open();
    const keys = await after.getIdentityKeys();
    expect(keys?.created).toBe(42);
    expect(keys?.signSeed).toBeInstanceOf(Uint8Array);
    // The same seed gives the same public key: the device is still the same player.
    expect(nacl.sign.keyPair.fromSeed(keys!.signSeed).publicKey).toEqual(nacl.sign.keyPair.fromSeed(made.signSeed).publicKey);
    expect(Array.from(keys!.boxSecret)).toEqual(Array.from(made.boxSecret));
    after.close();
  });

  it('two tabs starting together end up with one identity', async () => {
    const profile = newProfile();
    const [a, b] = await Promise.all([profile.open(), profile.open()]);
    const [ka, kb] = await Promise.all([a.ensureIdentityKeys(nacl.randomBytes, 1), b.ensureIdentityKeys(nacl.randomBytes, 2)]);
    expect(Array.from(ka.signSeed)).toEqual(Array.from(kb.signSeed));
    a.close();
    b.close();
  });
});

describe('settings', () => {
  it('are kept per name across a reload, and can be removed', async () => {
    const profile = newProfile();
    const store = await profile.open();
    expect(await store.getSettings()).toEqual({});
    await store.updateSettings({ language: 'es', name: 'Ana' });
    await store.updateSettings({ signaling: ['ws://192.168.1.10:8080'], iceServers: [{ urls: 'stun:example.org' }] });
    store.close();

    const after = await profile.open();
    expect(await after.getSettings()).toEqual({
      iceServers: [{ urls: 'stun:example.org' }],
      language: 'es',
      name: 'Ana',
      signaling: ['ws://192.168.1.10:8080'],
    });
    await after.updateSettings({ name: undefined, language: 'en' });
    expect(await after.getSettings()).toEqual({ iceServers: [{ urls: 'stun:example.org' }], language: 'en', signaling: ['ws://192.168.1.10:8080'] });
    after.close();
  });

  it('refuses a value of the wrong shape and keeps the old one', async () => {
    const store = await newProfile().open();
    await store.updateSettings({ language: 'en' });
    await expect(store.updateSettings({ language: 'fr' as 'en' })).rejects.toThrow(/language/);
    expect((await store.getSettings()).language).toBe('en');
    store.close();
  });
});
