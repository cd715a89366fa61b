// The duty loop: after every change of the view, performs what an honest phone signs on its own
// (duties.ts says what is due), each duty once per session and each once-only message once per
// device (the outbox reserves it), signing through the outbox.
import {
  acceptStart,
  acknowledge,
  claimClock,
  commitSealTag,
  commitLotValue,
  finalOrders,
  fromBase64,
  lockBallot,
  revealBallot,
  scalarFromBytes,
  secretBytes,
  startRefusal,
  toBase64,
  type GameView,
  type Identity,
  type Message,
} from '../../protocol';
import type { Power } from '../../rules';
import { pendingHash, type Drafts } from './drafts';
import { duties, dutyKey, type Duty } from './duties';
import type { Outbox } from './outbox';
import type { GameRecordRef } from './records';

export interface DutyLoopOptions {
  readonly identity: Identity;
  readonly gameId: string;
  readonly outbox: Outbox;
  readonly drafts: Drafts;
  readonly record: GameRecordRef;
  readonly random: (n: number) => Uint8Array;
  readonly now: () => number;
  /** Re-reads the log and returns the view now. */
  readonly fresh: () => GameView;
  /** The powers this phone plays now. */
  readonly powers: () => readonly Power[];
  /** The game's entries opened, by id: what LOCK and REVEAL name and open. */
  readonly messages: () => ReadonlyMap<string, Message>;
}

export class DutyLoop {
  private readonly o: DutyLoopOptions;
  /** Duties performed (or in flight) in this session, so one is never signed twice. */
  private readonly done = new Set<string>();

  constructor(o: DutyLoopOptions) {
    this.o = o;
  }

  /** Performs every duty due in `view` that this session has not performed; a failed one is retried next time. */
  async run(view: GameView): Promise<void> {
    const ready = this.o.record.current.ready;
    for (const d of duties({ view, me: this.o.identity.id, now: this.o.now(), ...(ready === undefined ? {} : { ready }) })) {
      const key = dutyKey(d);
      if (this.done.has(key)) continue;
      this.done.add(key);
      try {
        await this.perform(d);
      } catch (e) {
        this.done.delete(key);
        throw e;
      }
    }
  }

  private async perform(d: Duty): Promise<void> {
    const { identity: id, gameId, outbox } = this.o;
    switch (d.kind) {
      case 'accept-start': {
        // A START that pins another escrow key for this phone is never accepted; asked before the
        // once-only acceptance is reserved, so it does not cost the acceptance of another START.
        const start = this.o.messages().get(d.startId);
        if (start === undefined || startRefusal(id, gameId, start) !== null) return;
        await outbox.send((stamp) => acceptStart(id, gameId, start, stamp), { once: 'accept-start' });
        return;
      }
      case 'ack':
        await outbox.send((stamp) => acknowledge(id, gameId, d.phase, d.hash, stamp));
        return;
      case 'lot-commit': {
        const random = { secret: this.o.random(32), nonce: this.o.random(24), entropy: this.o.random(32) };
        const value = this.o.random(32);
        // The secret (the sum of the escrow's derived shares, so known once the commit is made)
        // is written with the commit's once-only name and bytes, before the commit leaves: a lot
        // commit whose secret is lost can only be opened by the others (none, with two players).
        let secret: string | undefined;
        await outbox.send(
          (stamp) => {
            const view = this.o.fresh();
            if (view.status !== 'lot') return null;
            const made = commitLotValue(id, gameId, view, value, random, stamp);
            secret = toBase64(secretBytes(made.secret));
            return made.message;
          },
          { once: 'lot-commit', secret: () => secret },
        );
        return;
      }
      case 'final': {
        const current = this.o.fresh().current;
        if (current === undefined || current.key !== d.phase) return;
        // The commit this phone made last for the power (its own records), else the latest one in the
        // log. The records are held in memory; the head of the power's ballot not among them was made
        // by another tab (or the service worker) of this device: they are read from the store again.
        // One whose secret was kept but which is not in the log (the phone died between the two, or
        // another tab is sending it) is sent (again) first: a FINAL naming a commit no phone can hold
        // leaves every phone waiting for it. One that cannot be sent is not named.
        const head = current.ballot.heads[d.power];
        const held = current.ballot.commits[d.power] ?? [];
        let mine = await this.o.drafts.sealsKept(d.phase, d.power);
        if (head !== undefined && !mine.some((s) => s.hash === head)) mine = await this.o.drafts.sealsKept(d.phase, d.power, true);
        let commit = head;
        for (const seal of [...mine].reverse()) {
          if (held.includes(seal.hash) || (seal.entry !== undefined && (await outbox.resend(seal.entry)))) {
            commit = seal.hash;
            break;
          }
        }
        if (commit === undefined) return;
        await outbox.send((stamp) => finalOrders(id, gameId, d.phase, d.power, commit, stamp), { once: dutyKey(d) });
        return;
      }
      case 'lock': {
        await outbox.send((stamp) => lockBallot(id, gameId, this.o.fresh(), this.o.messages(), stamp), { once: dutyKey(d) });
        return;
      }
      case 'reveal': {
        await outbox.send(
          async (stamp) => {
            const view = this.o.fresh();
            const messages = this.o.messages();
            // A commit's secret by its id, else as kept ahead under its escrow's tag (the record
            // naming it by id lost in a crash: it is written after the commit leaves).
            const reveal = (secrets: ReadonlyMap<string, bigint>) =>
              revealBallot(id, gameId, view, messages, (c) => secrets.get(c) ?? secrets.get(pendingHash(commitSealTag(messages, c) ?? '')) ?? null, stamp);
            try {
              return reveal(await this.secrets(d.phase));
            } catch {
              // Held in memory: one this device made in another tab (or the service worker) is read
              // from the store; the same error comes back if it is not there either.
              return reveal(await this.secrets(d.phase, true));
            }
          },
          { once: dutyKey(d) },
        );
        return;
      }
      case 'clock':
        await outbox.send((stamp) => claimClock(id, gameId, d.phase, 'orders', stamp));
        return;
    }
  }

  /** The secret of every commit this phone made in the ballot (phase seals, or the lot secret). */
  private async secrets(phase: string, reload = false): Promise<Map<string, bigint>> {
    if (phase !== 'lot') return this.o.drafts.secrets(phase, this.o.powers(), reload);
    const out = new Map<string, bigint>();
    // Kept with the lot commit's name (older versions: in the game's record).
    const stored = this.o.record.current.lotSecret ?? (await this.o.outbox.keptSecret('lot-commit'));
    const bytes = stored === undefined ? null : fromBase64(stored);
    const s = bytes === null ? null : scalarFromBytes(bytes);
    if (s !== null) for (const id of this.o.fresh().lot?.ballot.commits[this.o.identity.id] ?? []) out.set(id, s);
    return out;
  }
}
