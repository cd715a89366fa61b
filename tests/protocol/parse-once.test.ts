// Issue 17: an entry arriving on a phone is read by the signature check ahead (the verifier's
// prepare), by the admission and by the reducer (openLog, gameMessages, openMessage). Its bytes are
// decoded once and its signature checked once per phone: every later reader reuses that reading.
// The decoder is counted by wrapping the real codec.decodePayload (it still runs), and the signature
// checks by the check function injected into the verifier.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as codec from '../../src/protocol/codec';
import {
  Admission,
  cachedVerifier,
  checkSignature,
  gameMessages,
  hashHex,
  nativeFirstVerifier,
  openMessage,
  reduceLog,
  type Verifier,
} from '../../src/protocol';
import { playedCompactLog } from './helpers';

vi.mock('../../src/protocol/codec', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/protocol/codec')>();
  return { ...real, decodePayload: vi.fn(real.decodePayload) };
});

const decoded = vi.mocked(codec.decodePayload);

/** Per entry id (the hash of the signed bytes it decodes), how many times the decoder ran on it. */
function decodesById(): Map<string, number> {
  const out = new Map<string, number>();
  for (const [body] of decoded.mock.calls) {
    const id = hashHex(body);
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

/** What a phone does as each entry arrives: check ahead (if it can), admit, reduce, read the messages. */
async function receive(
  gameId: string,
  log: readonly Uint8Array[],
  check: Verifier & { prepare?: (e: readonly Uint8Array[], ctx?: never) => Promise<void> | null },
) {
  const admission = new Admission(gameId, { verifier: check });
  for (const bytes of log) {
    // A copy: the carrier hands each reader bytes it received, never the sender's array.
    const arrived = Uint8Array.from(bytes);
    await check.prepare?.([arrived], admission.wireContext() as never);
    expect(admission.offer(arrived).kind).toBe('admitted');
    reduceLog(gameId, admission.entries(), { verifier: admission.verifier, me: 'someone' });
    gameMessages(gameId, admission.entries(), admission.verifier);
    // A reader that opens the entry itself (the bench page's phone, the outbox's own entries).
    expect(openMessage(arrived, admission.verifier, admission.wireContext()).ok).toBe(true);
  }
  return admission;
}

describe('an arriving entry is decoded and checked once per phone', () => {
  beforeEach(() => decoded.mockClear());

  it('with the signature checked in pure code: one decode and one check per entry', async () => {
    const { gameId, log } = playedCompactLog(17);
    const checked = new Map<string, number>();
    const verifier = cachedVerifier((payload, signature, key) => {
      const id = hashHex(payload);
      checked.set(id, (checked.get(id) ?? 0) + 1);
      return checkSignature(payload, signature, key);
    });
    decoded.mockClear();
    const admission = await receive(gameId, log, verifier);
    expect(admission.size).toBe(log.length);
    const ids = admission.ids();
    expect(ids.length).toBeGreaterThan(40);
    const decodes = decodesById();
    for (const id of ids) {
      expect({ id, decodes: decodes.get(id) }).toEqual({ id, decodes: 1 });
      expect({ id, checks: checked.get(id) }).toEqual({ id, checks: 1 });
    }
  });

  it("with the platform's verifier checking ahead: one decode and one check per entry", async () => {
    const { gameId, log } = playedCompactLog(17);
    const checked = new Map<string, number>();
    const verifier = nativeFirstVerifier(
      Promise.resolve(async (payload: Uint8Array, signature: Uint8Array, key: Uint8Array) => {
        const id = hashHex(payload);
        checked.set(id, (checked.get(id) ?? 0) + 1);
        return checkSignature(payload, signature, key);
      }),
    );
    await Promise.resolve();
    decoded.mockClear();
    const admission = await receive(gameId, log, verifier);
    expect(admission.size).toBe(log.length);
    const decodes = decodesById();
    for (const id of admission.ids()) {
      expect({ id, decodes: decodes.get(id) }).toEqual({ id, decodes: 1 });
      expect({ id, checks: checked.get(id) }).toEqual({ id, checks: 1 });
    }
  });
});
