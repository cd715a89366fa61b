// The public face of the protocol: signed messages, sealed orders and the log reducer.
// net/, store/ and ui/ import from here only.
export { toBase64, fromBase64, toHex, fromHex, compareText } from './bytes';
export { canonicalEncode, canonicalDecode, canonicalText, CanonicalError, hashHex, stateHash } from './canonical';
export { createIdentity, fingerprint, type Identity } from './identity';
export {
  PROTOCOL_VERSION,
  checkPayload,
  type Settings,
  type Deadlines,
  type Payload,
  type PayloadBody,
  type PhaseKey,
  type MessageType,
} from './messages';
export { signMessage, openMessage, parseEntry, verifyEntry, cachedVerifier, naclVerifier, MAX_MESSAGE_BYTES, SIGNATURE_BYTES, type Message, type Verifier, type ParsedEntry } from './envelope';
export {
  Admission,
  QUOTAS,
  SIZE_CAPS,
  PENDING_LIMITS,
  boundedFailedSet,
  comparePhaseKeys,
  digestBucket,
  entryHash,
  type AdmissionOptions,
  type Changes,
  type FailedSet,
  type Verdict,
} from './admission';
export { sealOrders, openOrders, sealedHash, type Sealed } from './seal';
export { sealChat, openChat, type ChatRecipient } from './chat';
export { lotCommitment, lotSeed, lotOrder, dealPowers, dealSeats, coinToss } from './lot';
export { variantOf, rosterProblem, tossWinner } from './variants';
export { drawSalt, drawCommitment, tallyDraw, type DrawTally } from './draw';
export { gameIdFor, POWER_LOT } from './lobby';
export { countTimeouts, openingTime, quorumReached, revealGrace } from './timeout';
export { standardEngine, phaseKey, type Engine } from './engine';
export { RULES_ENGINE_VERSION } from '../rules';
export { reduceLog, type ReduceOptions } from './reduce';
export { clearMemos } from './memo';
export * from './client';
export type * from './view';
