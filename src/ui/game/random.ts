// The app's only source of randomness (keys, nonces, salts, lot values): the platform's CSPRNG.
export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}
