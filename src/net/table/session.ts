// Table mode as the app uses it: the host invites guests one QR code at a time and every link it
// makes joins the host's provider; a guest answers one invitation and joins its own provider.
import type { TableLink } from './link';
import { answerHostOffer, createHostOffer, type HostOffer, type TablePeerOptions } from './peer';
import { decodePairingCode } from './pairing-code';
import { SdpError } from './sdp';
import type { TableProvider } from './provider';

export class TableHost {
  private readonly open = new Map<number, HostOffer>();
  private nextSlot = 0;

  constructor(
    readonly provider: TableProvider,
    private readonly options: TablePeerOptions = {},
  ) {}

  /** A new invitation; its code is what the host's screen shows. Several may be open at once. */
  async invite(): Promise<HostOffer> {
    const slot = this.freeSlot();
    const offer = await createHostOffer(slot, this.options);
    this.open.set(slot, offer);
    return offer;
  }

  /** The guest's answer code, scanned: resolves once the guest is linked and syncing. */
  async accept(answer: Uint8Array): Promise<TableLink> {
    const { slot, type } = decodePairingCode(answer);
    // Checked before the invitation is used up: a camera that catches the host's own offer (in a
    // mirror, on another host's screen) must not cost the guest their invitation.
    if (type !== 'answer') throw new SdpError('expected an answer code, got an offer');
    const offer = this.open.get(slot);
    if (!offer) throw new SdpError('no open invitation for this answer');
    this.open.delete(slot);
    const link = await offer.complete(answer);
    this.provider.connect(link);
    return link;
  }

  /** Withdraws every invitation not yet answered. */
  cancelInvitations(): void {
    for (const offer of this.open.values()) offer.cancel();
    this.open.clear();
  }

  private freeSlot(): number {
    for (let i = 0; i < 256; i++) {
      const slot = (this.nextSlot + i) % 256;
      if (!this.open.has(slot)) {
        this.nextSlot = (slot + 1) % 256;
        return slot;
      }
    }
    throw new Error('too many open invitations');
  }
}

export interface TableJoin {
  /** The answer code for the guest's screen. */
  readonly code: Uint8Array;
  /** Resolves once the host has scanned the answer and the link is syncing. */
  readonly joined: Promise<TableLink>;
  cancel(): void;
}

/** A guest's side: answer the host's offer code and join `provider` once the host scans the answer. */
export async function joinTable(provider: TableProvider, offer: Uint8Array, options: TablePeerOptions = {}): Promise<TableJoin> {
  const answer = await answerHostOffer(offer, options);
  const joined = answer.connected.then((link) => {
    provider.connect(link);
    return link;
  });
  joined.catch(() => undefined);
  return { code: answer.code, joined, cancel: answer.cancel };
}
