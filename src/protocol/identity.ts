// A device's identity: an ed25519 key pair to sign, a curve25519 key pair to receive encrypted
// chat, and a ristretto255 escrow key that other players' escrow shares are encrypted to (derived
// from the signing seed, so nothing new is stored). No accounts: a player is their public key,
// shown as a short fingerprint.
import { ed25519 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';
import { concatBytes, toHex } from './bytes';
import { escrowPublic, escrowSecret } from './escrow';

export interface Identity {
  /** ed25519 public key, hex: how every message names its author. */
  readonly id: string;
  readonly signPublicKey: Uint8Array;
  readonly signSecretKey: Uint8Array;
  /** curve25519 public key, hex: published in JOIN so others can encrypt chat to us. */
  readonly boxPublicKey: string;
  readonly boxSecretKey: Uint8Array;
  /** Escrow secret scalar x (escrow.ts); never leaves the device. */
  readonly escrowSecret: bigint;
  /** x·G, base64url: published in JOIN so others can escrow to us. */
  readonly escrowPublicKey: string;
}

/** Both seeds come from the caller (nacl.randomBytes(32) on first run, then the store). */
export function createIdentity(signSeed: Uint8Array, boxSecret: Uint8Array): Identity {
  if (signSeed.length !== 32 || boxSecret.length !== 32) throw new Error('identity seeds must be 32 bytes');
  // The same key pair as tweetnacl's sign.keyPair.fromSeed (secret key = seed ‖ public key).
  const publicKey = ed25519.getPublicKey(signSeed);
  const sign = { publicKey, secretKey: concatBytes(signSeed, publicKey) };
  const box = nacl.box.keyPair.fromSecretKey(boxSecret);
  const x = escrowSecret(signSeed);
  return {
    id: toHex(sign.publicKey),
    signPublicKey: sign.publicKey,
    signSecretKey: sign.secretKey,
    boxPublicKey: toHex(box.publicKey),
    boxSecretKey: box.secretKey,
    escrowSecret: x,
    escrowPublicKey: escrowPublic(x),
  };
}

/** 64 bits of the key's hash in four groups: short enough to read aloud and compare across a table. */
export function fingerprint(publicKeyHex: string): string {
  const bytes = new Uint8Array(publicKeyHex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(publicKeyHex.slice(2 * i, 2 * i + 2), 16);
  const hex = toHex(nacl.hash(bytes).subarray(0, 8));
  return `${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}`;
}
