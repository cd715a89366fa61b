// "Keep the secret": a commit whose secret is lost can only be opened by the others' shares, so a
// phone's commit never leaves it before the secret it was sealed with is on disk. The runner keeps
// the secret of the next seal ahead (ahead.ts keepSecret, drafts keepAhead) so the seal itself
// waits for no write; these tests hold the store's writes of seals back and look at what had
// landed at the instant each commit went out, and crash a phone between its commit going out and
// the record naming the secret by the commit's id landing.
import { describe, expect, it } from 'vitest';
import { checkCommitSecret, scalarFromBytes } from '../../src/protocol';
import { type PactoStore, type SealRecord } from '../../src/store';
import { link, payloadOf, phoneOn, startedWithBea } from './crash-helpers';
import { openPhone, settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;

/** Ana (every power but two), Bea (Germany, on the phone `makeB` opens) and Carl (Russia), started. */
async function startedThree(makeB: (d: Phone['device'], gameId: string, onCrash: () => void) => Promise<Phone>) {
  const started = await startedWithBea(clock, now, makeB);
  expect(started.b.runner.view.status).toBe('playing');
  return { ...started, phase: started.a.runner.view.current!.key };
}

/** Bea's entries of a type, as a phone holds them. */
function fromBea(p: Phone, bea: string, type: string): Uint8Array[] {
  const ctx = p.replica.admission.wireContext();
  return p.replica.entries().filter((e) => payloadOf(e, ctx)?.type === type && payloadOf(e, ctx)?.from === bea);
}

describe('a commit never leaves the phone before its secret is on disk', () => {
  it('kept ahead or not: at the instant each commit goes out, a secret that opens it has landed', async () => {
    // Seal writes land only when the test lets them (a slow disk), and count as landed only then.
    const landed: SealRecord[] = [];
    /** The phases of the drafts read from the store. */
    const reads: string[] = [];
    let gated = true;
    const held: (() => void)[] = [];
    const release = () => held.splice(0).forEach((f) => f());
    const slow = (store: PactoStore): PactoStore =>
      new Proxy(store, {
        get(target, key, receiver) {
          const v: unknown = Reflect.get(target, key, receiver);
          if (key === 'getDraft')
            return (k: Parameters<PactoStore['getDraft']>[0]) => {
              reads.push(k.phase);
              return target.getDraft(k);
            };
          if (key !== 'addSeal') return v;
          return async (...args: Parameters<PactoStore['addSeal']>) => {
            const r = await target.addSeal(...args);
            if (gated) await new Promise<void>((resolve) => held.push(resolve));
            landed.push(args[1]);
            return r;
          };
        },
      });
    const { a, b, c, phones, bea, phase } = await startedThree((d, gameId) => phoneOn(d, gameId, slow(d.store), now));
    // At the instant one of Bea's commits is admitted on her phone (it goes into the doc, to the
    // others, in the same step), a landed secret must open it.
    const checked = new Set<string>();
    const problems: string[] = [];
    b.replica.subscribe(() => {
      const ctx = b.replica.admission.wireContext();
      for (const e of fromBea(b, bea, 'commit')) {
        const p = payloadOf(e, ctx);
        if (p?.type !== 'commit') continue;
        const id = b.replica.admission.idOfBytes(e)!;
        if (checked.has(id)) continue;
        checked.add(id);
        const opens = landed.some((s) => {
          const k = scalarFromBytes(s.key);
          return k !== null && checkCommitSecret(p.escrow, true, k);
        });
        if (!opens) problems.push(`commit ${id} went out before its secret was on disk`);
      }
    });
    /** Seals, and checks the commit waits while the disk holds the seal writes back. */
    const sealHeldBack = async (n: number) => {
      const sealing = b.runner.seal('germany', []);
      // Until a seal write is held back (the store is slow when the machine is busy), then a while more.
      for (let i = 0; i < 1000 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(held.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 30));
      expect(checked.size).toBe(n - 1);
      while (checked.size < n) {
        release();
        await new Promise((r) => setTimeout(r, 5));
      }
      release();
      await sealing;
    };

    // Bea's first seal: its secret was kept ahead (the work done ahead, ahead.ts) while the player
    // had not sealed, and that write has not landed: the commit waits for it.
    expect(landed).toEqual([]);
    await sealHeldBack(1);
    expect(landed[0]?.hash.startsWith('escrow:')).toBe(true);
    // The record naming that secret by the commit's id (nothing waited for it) lands too.
    while (!landed.some((s) => !s.hash.startsWith('escrow:'))) {
      release();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(held).toEqual([]);
    // A re-seal: nothing kept ahead for it, its own strict write is held back: the commit waits.
    await sealHeldBack(2);
    gated = false;
    release();
    // From here on the phase's drafts (seals and secrets) are read from memory: its FINAL and
    // REVEAL duties read nothing from the store (they are loaded once per phase).
    const readsBefore = reads.filter((r) => r === phase).length;
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    expect(problems).toEqual([]);
    expect(checked.size).toBe(2);
    expect(fromBea(a, bea, 'commit')).toHaveLength(2);
    for (const p of phones) expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
    expect(fromBea(a, bea, 'reveal')).toHaveLength(1);
    expect(reads.filter((r) => r === phase).length).toBe(readsBefore);
  });

  it('a crash after the commit went out, before the record naming its secret by id landed: reopened, the phone reveals with the secret kept ahead', async () => {
    let crashed = false;
    const never = new Promise<never>(() => undefined);
    const dying = (store: PactoStore, onCrash: () => void): PactoStore =>
      new Proxy(store, {
        get(target, key, receiver) {
          const v: unknown = Reflect.get(target, key, receiver);
          if (typeof v !== 'function') return v;
          return (...args: unknown[]): unknown => {
            if (crashed) return never;
            // The seal's record named by the commit's id (after a secret kept ahead): the phone dies
            // as it is written; the commit goes out meanwhile (nothing waits for this write).
            if (key === 'addSeal' && !(args[1] as SealRecord).hash.startsWith('escrow:')) {
              crashed = true;
              setTimeout(onCrash, 0);
              return never;
            }
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    const { a, c, db, gameId, phones, bea, phase, dead } = await startedThree((d, id, onCrash) => phoneOn(d, id, dying(d.store, onCrash), now));
    // Bea seals first: a last seal's commit waits for its FINAL's reservation (they leave together,
    // outbox.ts SendOptions.with), which this crash would stop.
    const b = phones[1]!;
    await b.runner.seal('germany', []);
    await settle([a, c]);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle([a, c]);
    expect(crashed).toBe(true);
    expect(dead.has(b)).toBe(true);
    // Its commit went out before it died.
    expect(fromBea(a, bea, 'commit')).toHaveLength(1);
    expect(fromBea(a, bea, 'reveal')).toEqual([]);

    // Reopened from its store: the secret is there only under its escrow's tag.
    const stored = await db.store.getDraft({ gameId, phase, power: 'germany' });
    expect(stored?.seals.map((s) => s.hash.startsWith('escrow:'))).toEqual([true]);
    const b2 = await openPhone(db, gameId, now);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    expect(fromBea(a, bea, 'reveal')).toHaveLength(1);
  });

  it("no duty waits for the game record's summary: with that write stuck, the phone still seals, signs its FINAL, LOCK and REVEAL", async () => {
    let stuck = false;
    const sticky = (store: PactoStore): PactoStore =>
      new Proxy(store, {
        get(target, key, receiver) {
          const v: unknown = Reflect.get(target, key, receiver);
          if (key !== 'updateGame') return v;
          return (...args: Parameters<PactoStore['updateGame']>) => (stuck ? new Promise<never>(() => undefined) : target.updateGame(...args));
        },
      });
    const { a, b, c, bea, phase } = await startedThree((d, gameId) => phoneOn(d, gameId, sticky(d.store), now));
    stuck = true;
    // Its summary (the powers it owes, the phase) changes as it seals and as the phase resolves.
    const sealing = b.runner.seal('germany', []);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await sealing;
    await settle([a, c]);
    for (let i = 0; i < 200 && !a.runner.view.phases.some((ph) => ph.key === phase); i++) {
      await new Promise((r) => setTimeout(r, 10));
      await settle([a, c]);
    }
    for (const type of ['commit', 'final', 'lock', 'reveal']) expect(fromBea(a, bea, type).length, type).toBeGreaterThan(0);
    expect(a.runner.view.phases.map((ph) => ph.key)).toContain(phase);
    b.runner.close();
  });
});
