// Work done ahead, in idle time: from the last commit to the result every phone signs FINAL, LOCK
// and REVEAL in turn, and the LOCK's curve work (this phone's share of each named commit, checked)
// can be done as soon as each commit arrives; the last seal is in that path too, and its escrow
// does not depend on the orders. After every reduction the runner pokes this; it does one piece
// per task (a few milliseconds each, so a reaction to new entries is never held up long): once per
// ballot the tables its own seal needs, then the escrow of its first seal in the phase (from
// random bytes it draws and hands to that seal, takeSealRandom, with that seal's secret kept on
// disk from then: keepSecret), then its share of each commit.
// What it computes is remembered by the protocol (client.ts prepareSeal, prepareSealEscrow,
// prepareShare); what is signed is the same with or without it.
import { openBallot, prepareSeal, prepareShare, sealAhead, sealSecretAhead, sharesAhead, type GameView, type Identity, type Message } from '../../protocol';
import { nextTask } from './next-task';

export interface AheadOptions {
  readonly identity: Identity;
  /** The view now. */
  readonly view: () => GameView;
  /** The game's entries opened, by id (read once per burst of work, and again for a commit it lacks). */
  readonly messages: () => ReadonlyMap<string, Message>;
  readonly closed: () => boolean;
  /** Random bytes (the runner's source): for the escrow of the next seal. */
  readonly random: (n: number) => Uint8Array;
  /**
   * Stores the secret of the next seal (the runner's drafts, keepAhead) under its escrow's tag, in
   * the view it was drawn in; resolves once it is on disk, to where it was kept (the caller's name
   * for the place: the seal checks it is its own). Without it nothing is stored ahead.
   */
  readonly keepSecret?: (secret: bigint, tag: string, view: GameView) => Promise<string>;
  readonly onError?: (e: unknown) => void;
}

/** The random bytes of a seal that its escrow is dealt from (client.ts SealRandom). */
export interface SealEscrowRandom {
  readonly secret: Uint8Array;
  readonly entropy: Uint8Array;
  /**
   * The seal's secret as dealt ahead, its escrow's tag, and where keepSecret stored it (once on
   * disk; null if it failed). The seal compares its own secret (the ballot's keys may have changed
   * since) and place.
   */
  readonly kept?: { readonly secret: bigint; readonly tag: string; readonly landed: Promise<string | null> };
}

export class AheadWork {
  private readonly o: AheadOptions;
  /** The open ballot the state below is about (phase key and keys). */
  private ballot: string | null = null;
  /**
   * The pieces of that ballot done (next's answers): 'tables', 'seal' (one seal prepared: the next
   * deals for itself) and each commit handed to prepareShare (ids are hashes, never those words).
   */
  private done = new Set<string>();
  /** Bytes drawn for the next seal of that ballot, its escrow dealt from them: for one seal only. */
  private sealRandom: SealEscrowRandom | null = null;
  private queued = false;
  private messages: ReadonlyMap<string, Message> | undefined;

  constructor(o: AheadOptions) {
    this.o = o;
  }

  /** After a reduction: schedules what is left to do ahead in the view now, one piece per task. */
  poke(): void {
    if (this.queued || this.o.closed()) return;
    if (this.next(this.o.view()) === null) {
      this.messages = undefined;
      return;
    }
    this.queued = true;
    nextTask(() => this.step());
  }

  /**
   * The random bytes of the next seal, its escrow already dealt from them (or being dealt: the
   * seal then deals it itself, with the same result); null if none was drawn. Each is handed out
   * once: a seal must never reuse another's bytes.
   */
  takeSealRandom(): SealEscrowRandom | null {
    const r = this.sealRandom;
    this.sealRandom = null;
    return r;
  }

  /** What to do next: 'tables', 'seal', a commit id, or null. */
  private next(view: GameView): string | null {
    const b = openBallot(view);
    const ballot = b === undefined ? null : `${b.phase}|${b.ballotKeys.join(',')}`;
    if (ballot !== this.ballot) {
      this.ballot = ballot;
      this.done = new Set();
      this.sealRandom = null;
    }
    if (ballot === null) return null;
    if (!this.done.has('tables')) return 'tables';
    if (!this.done.has('seal') && sealAhead(view, this.o.identity.id)) return 'seal';
    return sharesAhead(this.o.identity, view).find((id) => !this.done.has(id)) ?? null;
  }

  private step(): void {
    this.queued = false;
    if (this.o.closed()) return;
    const view = this.o.view();
    try {
      const next = this.next(view);
      if (next !== null) this.done.add(next);
      if (next === 'tables') {
        prepareSeal(view, this.o.identity.id);
      } else if (next === 'seal') {
        const random = { secret: this.o.random(32), entropy: this.o.random(32) };
        const dealt = sealSecretAhead(this.o.identity, view, random);
        const keep = this.o.keepSecret;
        if (dealt === null || keep === undefined) this.sealRandom = random;
        else {
          const landed = keep(dealt.secret, dealt.tag, view).catch((e: unknown) => {
            this.o.onError?.(e);
            return null;
          });
          this.sealRandom = { ...random, kept: { secret: dealt.secret, tag: dealt.tag, landed } };
        }
      } else if (next !== null) {
        if (this.messages?.has(next) !== true) this.messages = this.o.messages();
        prepareShare(this.o.identity, view, this.messages, next);
      }
    } catch (e) {
      this.o.onError?.(e);
    }
    this.poke();
  }
}
