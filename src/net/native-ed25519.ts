// The platform's Ed25519 (WebCrypto: current Chromium, Safari and Firefox, and Node), used by
// phones to check signatures about ten times faster than pure JavaScript, asynchronously, as
// entries arrive. The protocol's acceptance rule runs first, in pure code (src/protocol/ed25519.ts);
// the platform verifier is used only if it gives the pinned answer on every known case, else (or
// where WebCrypto has no Ed25519) phones check in pure code. Both reach the same decisions.
import { nativeAgrees, nativeFirstVerifier, type NativeCheck, type PreparingVerifier } from '../protocol';

const ED25519 = { name: 'Ed25519' } as const;
const KEYS_KEPT = 4096;

/** WebCrypto's Ed25519 verify, with imported keys remembered; null if the platform lacks it or it
 *  fails the known answers. Never rejects. */
export async function webCryptoEd25519(subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle): Promise<NativeCheck | null> {
  if (subtle === undefined) return null;
  const keys = new Map<string, Promise<CryptoKey>>();
  const check: NativeCheck = async (payload, signature, publicKey) => {
    let hex = '';
    for (const b of publicKey) hex += b.toString(16).padStart(2, '0');
    let key = keys.get(hex);
    if (key === undefined) {
      if (keys.size >= KEYS_KEPT) keys.clear();
      key = subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, ED25519, false, ['verify']);
      keys.set(hex, key);
    }
    return subtle.verify(ED25519, await key, signature as Uint8Array<ArrayBuffer>, payload as Uint8Array<ArrayBuffer>);
  };
  try {
    return (await nativeAgrees(check)) ? check : null;
  } catch {
    return null;
  }
}

let shared: PreparingVerifier | null = null;

/** The verifier a phone's games share (one probe, one cache of checked signatures). */
export function platformVerifier(): PreparingVerifier {
  shared ??= nativeFirstVerifier(webCryptoEd25519());
  return shared;
}

export function isPreparing(v: unknown): v is PreparingVerifier {
  return typeof v === 'object' && v !== null && typeof (v as PreparingVerifier).prepare === 'function';
}
