// The networking layer's public face: the game log in a Y.Doc, its y-webrtc connection, invites.
export * from './log-doc';
export { splitUpdate } from './split-update';
export { syncStep1Message, splitSyncMessage } from './sync-messages';
export * from './settings';
export { roomNameFor } from './room';
export * from './provider';
export * from './invite';
export * from './table';
