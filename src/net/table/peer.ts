// One WebRTC data channel set up by exchanging two pairing codes, with no signaling server and no
// STUN: simple-peer with trickle off waits until every host candidate is gathered, so the offer and
// the answer each travel in a single QR code.
import SimplePeer from 'simple-peer/simplepeer.min.js';
import type { Instance, Options, SignalData } from 'simple-peer';
import type { TableLink } from './link';
import { decodePairingCode, encodePairingCode, type PairingCode } from './pairing-code';
import { SdpError, buildSdp, parseSdp, type SdpType } from './sdp';

export interface TablePeerOptions {
  /** Empty at the table: host candidates on the same Wi-Fi or hotspot are enough. */
  readonly iceServers?: RTCIceServer[];
  /** A WebRTC implementation for Node (@roamhq/wrtc); browsers use their own. */
  readonly wrtc?: Options['wrtc'];
  /** How long to wait for candidates before giving the code anyway. */
  readonly gatherTimeoutMs?: number;
  /** How long after the answer the data channel may take to open before pairing fails. */
  readonly connectTimeoutMs?: number;
}

const CONNECT_TIMEOUT_MS = 45_000;

export interface PendingLink {
  /** The pairing code to show as a QR code. */
  readonly code: Uint8Array;
  readonly slot: number;
  cancel(): void;
}

export interface HostOffer extends PendingLink {
  /** Feeds the guest's answer in; resolves when the data channel is open. */
  complete(answer: Uint8Array): Promise<TableLink>;
}

export interface GuestAnswer extends PendingLink {
  readonly connected: Promise<TableLink>;
}

function newPeer(initiator: boolean, options: TablePeerOptions): Instance {
  const peer = new SimplePeer({
    initiator,
    trickle: false,
    config: { iceServers: options.iceServers ?? [] },
    iceCompleteTimeout: options.gatherTimeoutMs ?? 5000,
    ...(options.wrtc ? { wrtc: options.wrtc } : {}),
  });
  // An emitter with no 'error' listener throws; failures reach callers through promises and 'close'.
  peer.on('error', () => undefined);
  return peer;
}

function localCode(peer: Instance, type: SdpType, slot: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const onSignal = (data: SignalData): void => {
      if (data.type !== type || data.sdp === undefined) return;
      peer.off('error', reject);
      try {
        resolve(encodePairingCode({ ...parseSdp(type, data.sdp), slot }));
      } catch (e) {
        peer.destroy();
        reject(e);
      }
    };
    peer.on('signal', onSignal);
    peer.once('error', reject);
  });
}

function whenConnected(peer: Instance, timeoutMs: number): Promise<TableLink> {
  return new Promise((resolve, reject) => {
    const fail = (e?: Error): void => {
      clearTimeout(timer);
      reject(e ?? new Error('peer closed before connecting'));
    };
    // Without this a pairing whose phones cannot reach each other (different networks, client
    // isolation on the Wi-Fi) would wait for as long as the browser's ICE agent keeps trying.
    const timer = setTimeout(() => peer.destroy(new Error('the phones could not reach each other')), timeoutMs);
    peer.once('error', fail);
    peer.once('close', fail);
    peer.once('connect', () => {
      clearTimeout(timer);
      peer.off('error', fail);
      peer.off('close', fail);
      resolve(linkOf(peer));
    });
  });
}

function linkOf(peer: Instance): TableLink {
  // A link that errors is closed: simple-peer destroys the peer and emits 'close' after 'error'.
  return {
    // The stream side of simple-peer waits while the channel buffer is full instead of throwing.
    send: (message) => void peer.write(message),
    onMessage: (listener) => peer.on('data', (d: Uint8Array) => listener(new Uint8Array(d.buffer, d.byteOffset, d.byteLength))),
    onClose: (listener) => peer.on('close', listener),
    close: () => peer.destroy(),
    get open() {
      return peer.connected && !peer.destroyed;
    },
  };
}

function remote(code: PairingCode): { type: SdpType; sdp: string } {
  return { type: code.type, sdp: buildSdp(code) };
}

export async function createHostOffer(slot: number, options: TablePeerOptions = {}): Promise<HostOffer> {
  const peer = newPeer(true, options);
  const code = await localCode(peer, 'offer', slot);
  return {
    code,
    slot,
    cancel: () => peer.destroy(),
    async complete(answer) {
      const decoded = decodePairingCode(answer);
      if (decoded.type !== 'answer') throw new SdpError('expected an answer code, got an offer');
      if (decoded.slot !== slot) throw new SdpError('this answer belongs to another invitation');
      const connected = whenConnected(peer, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
      peer.signal(remote(decoded));
      return connected;
    },
  };
}

export async function answerHostOffer(offer: Uint8Array, options: TablePeerOptions = {}): Promise<GuestAnswer> {
  const decoded = decodePairingCode(offer);
  if (decoded.type !== 'offer') throw new SdpError('expected an offer code, got an answer');
  const peer = newPeer(false, options);
  // The guest's clock starts now: the host still has to scan the answer.
  const connected = whenConnected(peer, (options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS) * 2);
  // Connection failures surface through `connected`; the code itself only fails on a bad offer.
  connected.catch(() => undefined);
  const answer = localCode(peer, 'answer', decoded.slot);
  peer.signal(remote(decoded));
  return { code: await answer, slot: decoded.slot, connected, cancel: () => peer.destroy() };
}
