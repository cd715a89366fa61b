// The public face of the protocol: signed messages, sealed orders, escrow and the log reducer.
// net/, store/ and ui/ import from here only.
export { toBase64, fromBase64, toHex, fromHex, compareText, equalBytes } from './bytes';
export { canonicalEncode, canonicalDecode, canonicalText, CanonicalError, hashHex, stateHash } from './canonical';
export { createIdentity, fingerprint, type Identity } from './identity';
export {
  PROTOCOL_VERSION,
  READABLE_VERSIONS,
  COMPACT_VERSION,
  CLOCK_VERSION,
  FIXED_VERSION,
  JSON_VERSION,
  LOCK_LIST_VERSION,
  PIN_VERSION,
  startKeys,
  DERIVED_ESCROW_VERSION,
  revealLockIds,
  LOT_PHASE,
  TABLE_DEADLINE_MS,
  revealDeadlineFor,
  checkPayload,
  type Settings,
  type Deadlines,
  type Payload,
  type StartPayload,
  type PayloadBody,
  type PhaseKey,
  type MessageType,
} from './messages';
export { ruleRefusal, nativeAgrees, KNOWN_ANSWERS, type NativeCheck } from './ed25519';
export {
  encodePayload,
  decodePayload,
  compactPayload,
  expandWire,
  namesAuthorByPlace,
  CodecError,
  BINARY_VERSION,
  BINARY_VERSIONS,
  type WireContext,
} from './codec';
export {
  signMessage,
  signPayloadBytes,
  decodeBody,
  openMessage,
  parseEntry,
  compactEntry,
  waitsForStart,
  verifyEntry,
  cachedVerifier,
  checkSignature,
  signatureVerifier,
  nativeFirstVerifier,
  type PreparingVerifier,
  MAX_MESSAGE_BYTES,
  SIGNATURE_BYTES,
  type Message,
  type Verifier,
  type ParsedEntry,
  type Opened,
} from './envelope';
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
  type StoredEntry,
  type Verdict,
} from './admission';
export { sealOrders, sealLotValue, openSealed, ordersFromPlain, lotValueFromPlain, sealedHash, paddedSize, paddingUnits, type SealedBox } from './seal';
export {
  scalarFromBytes,
  scalarToBytes,
  escrowOn,
  clearEscrowMemos,
  interpolateAtZero,
  checkSecret,
  pointFromText,
  pointText,
  escrowPublic,
  checkCommitSecret,
  reconstructFor,
  escrowKeyText,
} from './escrow';
export { sealChat, openChat, chatPlayers, CHAT_SIZES, type ChatRecipient, type ChatContent } from './chat';
export { lotSeed, lotOrder, dealPowers, dealSeats, lotRoster, coinToss } from './lot';
export { variantOf, rosterProblem, lotPlayersProblem, tossWinner } from './variants';
export { gameIdFor, startMembers, wireContextOf } from './lobby';
export { clockMedian, countTimeouts, nextOpening, quorumReached, upperMedian } from './timeout';
export { escrowHolders, revealOwes, tallyBallot, type RevealDue, type WorkCounter } from './ballot';
export { standardEngine, phaseKey, type Engine } from './engine';
export { RULES_ENGINE_VERSION } from '../rules';
export { gameMessages, openLog, reduceLog, type ReduceOptions } from './reduce';
export { clearMemos, clearFoldMemos } from './memo';
export * from './client';
export type * from './view';
