// Adversarial review of the burst work (batched applies and writes, the secret's durable write off
// the critical path): a commit's secret must be on disk before the commit leaves the phone, or a
// crash in between leaves a commit nobody can open by its owner's REVEAL (src/protocol/README.md,
// "Sending before the entry is stored": "a commit's secret is stored strictly before the commit is
// sent"). Here the phone's secret write is held back, or fails, and no other phone (nor this
// phone's own doc, which is what the network carries) may see the commit before it lands.
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net';
import { parseEntry } from '../../src/protocol';
import { type PactoStore } from '../../src/store';
import { type Power } from '../../src/rules';
import { payloadOf, phoneOn, startedWithBea } from './crash-helpers';
import { settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
/**
 * A store whose addSeal (a seal's secret, drafts.ts: kept ahead or with its commit) waits while the
 * gate is held and fails while `failing`; it records the secret bytes of every write that landed.
 */
interface SecretGate {
  hold(): void;
  release(): void;
  failing: boolean;
  /** The secrets (hex) of the seal writes that have landed, in order. */
  readonly landed: string[];
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function gatedStore(store: PactoStore): { store: PactoStore; gate: SecretGate } {
  let held: Promise<void> | null = null;
  let open: () => void = () => undefined;
  const gate: SecretGate = {
    hold() {
      held = new Promise<void>((r) => (open = r));
    },
    release() {
      held = null;
      open();
    },
    failing: false,
    landed: [],
  };
  const proxied = new Proxy(store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (key !== 'addSeal' || typeof v !== 'function') return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      return async (...args: unknown[]): Promise<unknown> => {
        if (held !== null) await held;
        if (gate.failing) throw new Error('disk full');
        const out = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        gate.landed.push(hex((args[1] as { key: Uint8Array }).key));
        return out;
      };
    },
  });
  return { store: proxied, gate };
}

async function gatedPhone(d: Phone['device'], gameId: string): Promise<Phone & { gate: SecretGate; seen: Map<string, readonly string[]> }> {
  const { store, gate } = gatedStore(d.store);
  // Each of Bea's commits as it enters her doc (what the network carries), with the secrets on disk then.
  const seen = new Map<string, readonly string[]>();
  const phone = await phoneOn(d, gameId, store, now);
  const { doc, replica } = phone;
  doc.on('update', () => {
    const ctx = replica.admission.wireContext();
    for (const e of readLog(doc)) {
      const o = parseEntry(e, ctx);
      if (o.ok && o.entry.payload.type === 'commit' && o.entry.payload.from === d.identity.id && !seen.has(o.entry.id)) seen.set(o.entry.id, [...gate.landed]);
    }
  });
  return { ...phone, gate, seen };
}

/** Every commit of Bea's that entered her doc had its secret (as her drafts name it by the commit's id) on disk by then. */
async function secretsWereKept(b: Awaited<ReturnType<typeof gatedPhone>>, phase: string, power: Power): Promise<void> {
  const record = await b.device.store.getDraft({ gameId: b.runner.gameId, phase, power });
  expect(b.seen.size).toBeGreaterThan(0);
  for (const [id, landed] of b.seen) {
    const seal = record?.seals.find((s) => s.hash === id);
    expect(seal, `no secret kept for commit ${id}`).toBeDefined();
    expect(landed, `commit ${id} entered the doc before its secret was on disk`).toContain(hex(seal!.key));
  }
}

/**
 * Ana (every power but two), Bea (Germany, on the gated phone) and Carl (Russia), started and
 * linked; `before` sets Bea's gate up before the START (so before any secret is kept ahead).
 */
async function startedThree(before: (gate: SecretGate) => void = () => undefined) {
  const { a, b, c, phones, bea } = await startedWithBea(
    clock,
    now,
    (d, gameId) => gatedPhone(d, gameId),
    (b) => before(b.gate),
  );
  expect(b.runner.view.status).toBe('playing');
  return { a, b, c, phones, bea, phase: a.runner.view.current!.key };
}

/** Bea's commits as a phone (its admitted set) or a doc (what the network carries) holds them. */
function commitsOf(bea: string, p: Phone, source: 'entries' | 'doc'): string[] {
  const ctx = p.replica.admission.wireContext();
  const entries = source === 'entries' ? p.replica.entries() : readLog(p.doc);
  return entries.flatMap((e) => {
    const q = payloadOf(e, ctx);
    return q?.type === 'commit' && q.from === bea ? [q.power] : [];
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a commit's secret is on disk before the commit leaves the phone", () => {
  it('while every secret write is held back the commit is in no doc and on no other phone; once they land, it goes', async () => {
    const { a, b, c, bea, phase } = await startedThree((gate) => gate.hold());
    const sealing = b.runner.seal('germany', []);
    // Long enough for any write batch, carrier timer, next-task reduction or work ahead to have run.
    for (let i = 0; i < 10; i++) {
      await wait(10);
      await Promise.all([a.runner.idle(), c.runner.idle()]);
    }
    expect(commitsOf(bea, b, 'doc'), 'the commit reached the doc the network carries before its secret was stored').toEqual([]);
    for (const p of [a, c]) expect(commitsOf(bea, p, 'entries'), 'another phone holds the commit before its secret was stored').toEqual([]);
    b.gate.release();
    await sealing;
    await settle([a, b, c]);
    for (const p of [a, c]) expect(commitsOf(bea, p, 'entries')).toEqual(['germany']);
    await secretsWereKept(b, phase, 'germany');
  });

  it('secret writes that fail let nothing out; the seal says so, and sealing again plays the phase through', async () => {
    const { a, b, c, bea, phase } = await startedThree((gate) => (gate.failing = true));
    await settle([a, b, c]);
    await expect(b.runner.seal('germany', [])).rejects.toThrow();
    await settle([a, b, c]);
    expect(commitsOf(bea, b, 'doc')).toEqual([]);
    for (const p of [a, c]) expect(commitsOf(bea, p, 'entries')).toEqual([]);
    expect(a.runner.view.current?.committed.includes('germany')).toBe(false);
    // Everyone seals; Bea again, with a working disk.
    b.gate.failing = false;
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await b.runner.seal('germany', []);
    await settle([a, b, c]);
    for (const p of [a, b, c]) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    await secretsWereKept(b, phase, 'germany');
  });

  it('seals and re-seals as usual (the work ahead running): every commit entered the doc with its secret on disk', async () => {
    const { a, b, c, phase } = await startedThree();
    await b.runner.seal('germany', []);
    await settle([a, b, c]);
    await b.runner.seal('germany', [{ kind: 'move', power: 'germany', unit: { type: 'A', loc: 'ber' }, to: 'pru' }]);
    await b.runner.seal('germany', []);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle([a, b, c]);
    expect(b.seen.size).toBe(3);
    for (const p of [a, b, c]) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    await secretsWereKept(b, phase, 'germany');
  });
});
