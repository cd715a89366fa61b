// Table mode in the app: a live game's links to the phones at the table (no internet, no server).
// Any phone of the game can invite (show an offer QR code) and any phone can answer one, so the
// game goes on when the first host leaves; each link greets (hello.ts) and then carries the game's
// Y.Doc through a TableProvider on the game's replica, which relays between links (a phone linked
// to two others passes updates between them). Which phones were linked is remembered while the app
// runs, so the screen can say which one dropped and pair it again.
import { answerHostOffer, createHostOffer, type HostOffer } from '../../net/table/peer';
import { TableProvider } from '../../net/table/provider';
import { greet, type TableHello } from '../../net/table/hello';
import { checkTicketGame, decodeTicket, encodeTicket, TicketError } from '../../net/table/ticket';
import type { TableLink } from '../../net/table/link';
import type { GameReplica } from '../../net/replica';

export interface TablePhone {
  /** The player key the phone greeted with. */
  readonly key: string;
  readonly linked: boolean;
  /** When the link opened, or dropped (ms since epoch). */
  readonly since: number;
}

export interface TableInvitation {
  /** The ticket to show as a QR code (and as text). */
  readonly ticket: Uint8Array;
  /** Scans the other phone's answer: resolves once it is linked and greeted. */
  accept(answer: Uint8Array): Promise<TablePhone>;
  cancel(): void;
}

export interface TableAnswer {
  readonly ticket: Uint8Array;
  /** Resolves once the inviting phone has scanned the answer and greeted. */
  readonly linked: Promise<TablePhone>;
  cancel(): void;
}

/** How long a pairing may take to connect after both codes are scanned (different networks never do). */
export const TABLE_CONNECT_MS = 30_000;

export class TableRoom {
  readonly provider: TableProvider;
  private readonly phones = new Map<string, TablePhone>();
  private readonly listeners = new Set<() => void>();
  private slot = 0;
  private readonly offers = new Set<HostOffer>();

  constructor(
    private readonly replica: GameReplica,
    readonly gameId: string,
    private readonly me: string,
    /** The game's invite link, for newcomers. */
    private readonly inviteLink: () => string,
    private readonly now: () => number = Date.now,
  ) {
    this.provider = new TableProvider(replica);
    this.provider.onError((e) => console.warn('pacto: table link', e));
  }

  list(): TablePhone[] {
    return [...this.phones.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  get linked(): number {
    return this.list().filter((p) => p.linked).length;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An offer for any phone: a newcomer (who gets the invite) or a phone of this game. */
  async invite(): Promise<TableInvitation> {
    this.slot = (this.slot + 1) % 256;
    const offer = await createHostOffer(this.slot, { connectTimeoutMs: TABLE_CONNECT_MS });
    this.offers.add(offer);
    return {
      ticket: encodeTicket(this.gameId, offer.code),
      accept: async (answer) => {
        const t = decodeTicket(answer, 'answer');
        checkTicketGame(t, this.gameId);
        if (t.pairing.slot !== offer.slot) throw new TicketError('other-game', 'this answer is for another invitation');
        this.offers.delete(offer);
        const link = await offer.complete(t.code);
        return this.adopt(link, true);
      },
      cancel: () => {
        this.offers.delete(offer);
        offer.cancel();
      },
    };
  }

  /** Answers a scanned offer ticket from another phone of this game. Throws TicketError at once. */
  async answer(offerTicket: Uint8Array): Promise<TableAnswer> {
    const t = decodeTicket(offerTicket, 'offer');
    checkTicketGame(t, this.gameId);
    const a = await answerHostOffer(t.code, { connectTimeoutMs: TABLE_CONNECT_MS });
    const linked = a.connected.then((link) => this.adopt(link, false));
    linked.catch(() => undefined);
    return { ticket: encodeTicket(this.gameId, a.code), linked, cancel: a.cancel };
  }

  /** A link greeted elsewhere (a newcomer's first link, made before it had the game). */
  attach(link: TableLink, hello: TableHello): TablePhone {
    return this.track(link, hello.key);
  }

  private async adopt(link: TableLink, inviting: boolean): Promise<TablePhone> {
    const { hello, link: l } = await greet(link, { v: 1, key: this.me, gameId: this.gameId, ...(inviting ? { invite: this.inviteLink() } : {}) });
    if (hello.gameId !== undefined && hello.gameId !== this.gameId) {
      l.close();
      throw new TicketError('other-game', 'the other phone holds another game');
    }
    return this.track(l, hello.key);
  }

  private track(link: TableLink, key: string): TablePhone {
    const phone: TablePhone = { key, linked: true, since: this.now() };
    this.phones.set(key, phone);
    this.provider.connect(link);
    link.onClose(() => {
      if (this.phones.get(key) === phone) this.phones.set(key, { key, linked: false, since: this.now() });
      this.emit();
    });
    this.emit();
    return phone;
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  destroy(): void {
    for (const o of this.offers) o.cancel();
    this.offers.clear();
    this.provider.destroy();
    this.listeners.clear();
  }
}

/**
 * A phone with no game yet answers an invitation: its answer ticket (no game tag), then, once the
 * inviting phone has scanned it, the greeting that carries the game's invite link.
 */
export async function answerAsNewcomer(
  offerTicket: Uint8Array,
  me: string,
): Promise<{ ticket: Uint8Array; joined: Promise<{ link: TableLink; hello: TableHello }>; cancel(): void }> {
  const t = decodeTicket(offerTicket, 'offer');
  const a = await answerHostOffer(t.code, { connectTimeoutMs: TABLE_CONNECT_MS });
  const joined = a.connected.then(async (link) => {
    const g = await greet(link, { v: 1, key: me });
    if (g.hello.invite === undefined || g.hello.gameId === undefined) {
      g.link.close();
      throw new Error('the other phone sent no game');
    }
    return g;
  });
  joined.catch(() => undefined);
  return { ticket: encodeTicket(undefined, a.code), joined, cancel: a.cancel };
}
