// Adversarial review of the last sealer's burst (issue 17: the last seal's COMMIT and FINAL, and
// its LOCK when every other power's FINAL is in, leaving at once): whatever the phone sends
// together, (1) no FINAL is signed for a power whose FINAL is not due (its holder did not mark the
// phase final and some awaited power still lacks a commit), (2) the FINAL names the seal the
// player made last, (3) a seal whose secret cannot be stored lets nothing out and reserves
// nothing, so sealing again plays the phase through, (4) a LOCK names every awaited power's FINAL
// and is signed once, and (5) the phase resolves with the very orders sealed last, on every phone.
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net';
import type { Order, Power } from '../../src/rules';
import type { PactoStore } from '../../src/store';
import { parseEntry } from '../../src/protocol';
import { phoneOn, startedWithBea } from './crash-helpers';
import { settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;

/** A store whose seal writes (a seal's secret, drafts.ts) fail while `failing.on`. */
function failingSeals(store: PactoStore): { store: PactoStore; failing: { on: boolean } } {
  const failing = { on: false };
  const proxied = new Proxy(store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      const f = (v as (...a: unknown[]) => unknown).bind(target);
      if (key !== 'addSeal') return f;
      return async (...args: unknown[]): Promise<unknown> => {
        if (failing.on) throw new Error('disk full');
        return f(...args);
      };
    },
  });
  return { store: proxied, failing };
}

type Gated = Phone & { failing: { on: boolean } };

/** `failing`: Bea's seal writes fail from before the START (so no secret of hers is kept ahead). */
async function started(failing = false) {
  const out = await startedWithBea<Gated>(
    clock,
    now,
    async (d, gameId) => {
      const { store, failing } = failingSeals(d.store);
      return { ...(await phoneOn(d, gameId, store, now)), failing };
    },
    (b) => (b.failing.on = failing),
  );
  expect(out.a.runner.view.status).toBe('playing');
  return { ...out, phase: out.a.runner.view.current!.key };
}

/** The signed ballot entries (and commits) of `kind` in a phone's doc, with their ids: what the network carries. */
function entriesOf(p: Phone, kind: 'commit' | 'final' | 'lock' | 'reveal'): Record<string, unknown>[] {
  const ctx = p.replica.admission.wireContext();
  return readLog(p.doc).flatMap((e) => {
    const o = parseEntry(e, ctx);
    if (!o.ok) return [];
    const q = o.entry.payload as unknown as Record<string, unknown>;
    return q.type === kind ? [{ ...q, id: o.entry.id }] : [];
  });
}

const sealAll = async (p: Phone, except: readonly Power[] = []) => {
  for (const power of p.runner.current.me.powers) if (!except.includes(power)) await p.runner.seal(power, []);
};

/** Army Berlin to Prussia: a seal whose effect shows in the result. */
const berPru: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'ber' }, to: 'pru' };

describe("the last sealer's FINAL is signed only when due", () => {
  it('a phone holding several powers that seals all but one after the others sealed signs no FINAL (nobody marked final)', async () => {
    const { a, b, c, phones } = await started();
    await sealAll(b);
    await sealAll(c);
    await settle(phones);
    const ana = a.runner.current.me.powers;
    expect(ana.length).toBeGreaterThan(1);
    await sealAll(a, [ana.at(-1)!]);
    await settle(phones);
    for (const p of phones) expect(entriesOf(p, 'final'), 'a FINAL before every awaited power had sealed').toEqual([]);
    for (const p of phones) expect(entriesOf(p, 'lock')).toEqual([]);
    // Ana seals her last power: every FINAL is due now, one per power, and the phase resolves.
    await a.runner.seal(ana.at(-1)!, []);
    await settle(phones);
    for (const p of phones) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    const finals = entriesOf(a, 'final');
    expect(finals.map((f) => f.power).sort()).toEqual([...ana, 'germany', 'russia'].sort());
    expect(entriesOf(a, 'lock')).toHaveLength(3);
  });

  it('a phone whose own other power lacks a commit, marked final, signs no FINAL for the one sealed', async () => {
    const { a, b, c, phones, phase } = await started();
    await sealAll(b);
    await sealAll(c);
    const ana = a.runner.current.me.powers;
    await a.runner.markFinal(true);
    await a.runner.seal(ana[0]!, []);
    await settle(phones);
    for (const p of phones) expect(entriesOf(p, 'final').filter((f) => f.from === a.device.identity.id && f.phase === phase)).toEqual([]);
  });
});

describe("the last sealer's FINAL names its last seal", () => {
  it('a phone with several powers re-seals one of them just before its last seal: the FINAL names the re-seal, and the result plays it', async () => {
    const { a, b, c, phones, phase } = await started();
    await sealAll(b);
    await sealAll(c);
    await settle(phones);
    const ana = a.runner.current.me.powers as Power[];
    // France: Paris to Burgundy, sealed first holding, then re-sealed with the move.
    expect(ana).toContain('france');
    const parBur: Order = { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'bur' };
    await sealAll(a, [ana.at(-1)!]);
    await a.runner.seal('france', [parBur]);
    const reseal = a.runner.view.current!.ballot.heads.france;
    expect(reseal).toBeDefined();
    await a.runner.seal(ana.at(-1)!, []);
    await settle(phones);
    const f = entriesOf(c, 'final').filter((x) => x.power === 'france' && x.phase === phase);
    expect(f).toHaveLength(1);
    expect(f[0]!.commit).toBe(reseal);
    for (const p of phones) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(p.runner.view.current!.position.units.some((u) => u.power === 'france' && u.loc === 'bur')).toBe(true);
    }
  });
});

describe('a last seal whose secret cannot be stored', () => {
  it('lets nothing out and reserves no FINAL: the seal says so, and sealing again (the disk back) plays the phase with that seal', async () => {
    const { a, b, c, phones, phase, bea } = await started(true);
    await sealAll(a);
    await sealAll(c);
    await settle(phones);
    await expect(b.runner.seal('germany', [berPru])).rejects.toThrow();
    await settle(phones);
    for (const p of phones) {
      expect(entriesOf(p, 'commit').filter((q) => q.from === bea)).toEqual([]);
      expect(entriesOf(p, 'final').filter((q) => q.from === bea)).toEqual([]);
      expect(entriesOf(p, 'lock')).toEqual([]);
    }
    // Nothing once-only of this phase was reserved on Bea's device for Germany's FINAL or her LOCK.
    let once: readonly string[] = [];
    await b.device.store.modifyReservation(b.runner.gameId, (r) => {
      once = r.once;
      return null;
    });
    expect(once.filter((n) => n.includes(phase))).toEqual([]);
    b.failing.on = false;
    await b.runner.seal('germany', [berPru]);
    await settle(phones);
    for (const p of phones) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(p.runner.view.current!.position.units.some((u) => u.power === 'germany' && u.loc === 'pru')).toBe(true);
    }
  });
});

describe('the last seal after every other power is final (the burst may carry the LOCK)', () => {
  it('others marked final: one LOCK per key, each naming every power’s FINAL, and the result plays the last seal', async () => {
    const { a, b, c, phones, phase, bea } = await started();
    await a.runner.markFinal(true);
    await c.runner.markFinal(true);
    await sealAll(a);
    await sealAll(c);
    await settle(phones);
    const before = entriesOf(a, 'final');
    expect(before.length).toBe(a.runner.current.me.powers.length + 1);
    expect(entriesOf(a, 'lock')).toEqual([]);
    await b.runner.seal('germany', [berPru]);
    await settle(phones);
    const finals = entriesOf(a, 'final').filter((f) => f.phase === phase);
    expect(finals).toHaveLength(7);
    // Every LOCK names seven FINALs, one per power: each the FINAL of that power in the log (so
    // Bea's names the FINAL of the seal she just made).
    const finalOf = new Map(finals.map((f) => [f.power as string, f.id as string]));
    const locks = entriesOf(a, 'lock').filter((l) => l.phase === phase);
    expect(locks.map((l) => l.from).sort()).toEqual([a.device.identity.id, bea, c.device.identity.id].sort());
    for (const l of locks) expect(l.finals).toEqual(Object.fromEntries([...finalOf].sort(([x], [y]) => (x < y ? -1 : 1))));
    const beaCommits = entriesOf(a, 'commit').filter((q) => q.from === bea);
    expect(beaCommits).toHaveLength(1);
    expect(finals.find((f) => f.power === 'germany')!.commit).toBe(beaCommits[0]!.id);
    for (const p of phones) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(p.runner.view.current!.position.units.some((u) => u.power === 'germany' && u.loc === 'pru')).toBe(true);
    }
  });
});
