// Table mode: phones at a table, no internet and no server. The host pairs with each guest by two QR
// codes and relays the game's Y.Doc between them. Nothing here understands the game.
export { TableProvider, TABLE_RESYNC_MS, type TableProviderOptions, type TableStatus } from './provider';
export { TableHost, joinTable, type TableJoin } from './session';
export { createHostOffer, answerHostOffer, type TablePeerOptions, type HostOffer, type GuestAnswer, type PendingLink } from './peer';
export type { TableLink } from './link';
export { encodePairingCode, decodePairingCode, MAX_PAIRING_CANDIDATES, type PairingCode } from './pairing-code';
export { parseSdp, buildSdp, SdpError, type SdpEssentials, type HostCandidate, type SdpType, type DtlsSetup } from './sdp';
export { drawQr, readQr, qrSize, qrModules, QR_ERROR_CORRECTION, type QrSize, type RgbaFrame } from './qr';
export { toFrames, FrameJoiner, TABLE_FRAME_BYTES } from './frames';
export { scanWithCamera, type CameraScanOptions } from './camera';
export { encodeTicket, decodeTicket, checkTicketGame, gameTag, ticketText, parseTicketText, TicketError, type Ticket, type TicketProblem } from './ticket';
export { greet, decodeHello, type TableHello } from './hello';
