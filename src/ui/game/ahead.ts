// Work done ahead, in idle time: from the last commit to the result every phone signs FINAL, LOCK
// and REVEAL in turn, and the LOCK's curve work (this phone's share of each named commit, checked)
// can be done as soon as each commit arrives. After every reduction the runner pokes this; it does
// one commit per task (a few milliseconds each, so a reaction to new entries is never held up
// long), and once per ballot builds the tables its own next seal needs. What it computes is
// remembered by the protocol (client.ts prepareShare, prepareSeal); what is signed is the same
// with or without it.
import { openBallot, prepareSeal, prepareShare, sharesAhead, type GameView, type Identity, type Message } from '../../protocol';
import { nextTask } from './next-task';

export interface AheadOptions {
  readonly identity: Identity;
  /** The view now. */
  readonly view: () => GameView;
  /** The game's entries opened, by id (read once per burst of work, and again for a commit it lacks). */
  readonly messages: () => ReadonlyMap<string, Message>;
  readonly closed: () => boolean;
  readonly onError?: (e: unknown) => void;
}

export class AheadWork {
  private readonly o: AheadOptions;
  /** The open ballot the sets below are about (phase key and keys). */
  private ballot: string | null = null;
  /** Commits of that ballot already handed to prepareShare. */
  private tried = new Set<string>();
  private tabled = false;
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

  /** What to do next: 'tables', a commit id, or null. */
  private next(view: GameView): 'tables' | string | null {
    const b = openBallot(view);
    const ballot = b === undefined ? null : `${b.phase}|${b.ballotKeys.join(',')}`;
    if (ballot !== this.ballot) {
      this.ballot = ballot;
      this.tried = new Set();
      this.tabled = false;
    }
    if (ballot === null) return null;
    if (!this.tabled) return 'tables';
    return sharesAhead(this.o.identity, view).find((id) => !this.tried.has(id)) ?? null;
  }

  private step(): void {
    this.queued = false;
    if (this.o.closed()) return;
    const view = this.o.view();
    try {
      const next = this.next(view);
      if (next === 'tables') {
        this.tabled = true;
        prepareSeal(view, this.o.identity.id);
      } else if (next !== null) {
        this.tried.add(next);
        if (this.messages?.has(next) !== true) this.messages = this.o.messages();
        prepareShare(this.o.identity, view, this.messages, next);
      }
    } catch (e) {
      this.o.onError?.(e);
    }
    this.poke();
  }
}
