// The networking layer's public face: a game's entry set and the Y.Doc that carries it
// (GameReplica), the gate every incoming update passes, anti-entropy, y-webrtc, invites.
export * from './log-doc';
export { splitUpdate } from './split-update';
export { applyUpdateSettled, settlePending } from './settle';
export { syncStep1Message, splitSyncMessage } from './sync-messages';
export * from './settings';
export { roomNameFor } from './room';
export * from './provider';
export * from './invite';
export * from './table';
export { structuralGate, MAX_UPDATE_BYTES, FRAME_LIMIT_BYTES, type PeerRef, type Report, type GateResult, type UpdateGate } from './gate';
export { GameReplica, PublishError, FAILED_LIMIT, type EntryStorage, type ReplicaOptions } from './replica';
export { AntiEntropyLink, MESSAGE_ANTI_ENTROPY, decodeAntiEntropy, encodeDigest, encodeIds, encodeEntries, type EntrySource } from './anti-entropy';
export { parseUpdate, parseStateVector, type ParsedUpdate } from './yjs-update';
