// Issue 29's crash-anywhere test: a phone's app may be killed between any two of its writes and
// reopened later; every phase must still complete, with each once-only message (the START's
// acceptance, the lot commit, FINAL, LOCK, REVEAL) signed at most once per device.
//
// Bea's phone runs on a store that numbers every write it makes during one phase (every
// reservation, entry, doc update, draft and game-record write: crash-anywhere-helpers WRITES). A
// dry run numbers them (N); then, for each k in 0..N-1, the phase is played again from the same
// snapshot and the page is killed at write k, either before it lands (the transaction commits
// nothing) or just after: from then on the phone is cut off, its runner closed and no call of its
// store ever answers. It is then reopened on the real store, as the app opens a game (a new
// replica, doc and runner), reconnected, and its player seals again if her view shows her power
// unsealed. The phase must complete on every phone with one outcome, no phone may report
// misconduct, and Bea's entries must hold one per once-only name and one per sequence number.
// Three phases: Spring 1901 (Bea seals between the others: her FINAL by her duty loop), Winter
// 1901 (she alone builds: her FINAL leaves with her commit) and a game by lot from its START (the
// acceptance, the lot commit with its secret, the lot's LOCK and REVEAL, all automatic).
import { describe, expect, it } from 'vitest';
import type { Order, Power } from '../../src/rules';
import { anaBeaCarlRoster } from './crash-helpers';
import {
  cloneDevice,
  crashStore,
  entriesBy,
  Net,
  onceName,
  onceProblems,
  openOn,
  reservedNames,
  type CrashPlan,
  type TestPhone,
  type Written,
} from './crash-anywhere-helpers';
import { settle as settleAll, threeDevices, type Phone } from './phones';
import type { Device } from '../../src/ui/game/device';

const clock = 1_700_000_000_000;
const now = () => clock;

interface Snapshot {
  readonly gameId: string;
  readonly devices: readonly [Device, Device, Device];
}

/**
 * Ana's game on three devices, Bea and Carl joined (Bea claiming Germany, Carl Russia; by lot, no
 * claims), and with `start` the START sent (Ana every other power), then what `prelude` does;
 * every runner settled and every write landed, so copies of the devices (cloneDevice) all start
 * from here.
 */
async function snapshot(
  assignment: 'choice' | 'lot',
  start: boolean,
  prelude: (a: TestPhone, b: TestPhone, c: TestPhone) => Promise<void> = () => Promise.resolve(),
): Promise<Snapshot> {
  const { gameId, devices } = await threeDevices(clock, assignment);
  const [da, db, dc] = devices;
  const phones = [await openOn(da, gameId, now), await openOn(db, gameId, now), await openOn(dc, gameId, now)];
  const net = new Net();
  for (const p of phones) net.add(p);
  await settleAll(phones);
  const [a, b, c] = phones as [TestPhone, TestPhone, TestPhone];
  await b.runner.join('Bea', assignment === 'lot' ? null : 'germany');
  await c.runner.join('Carl', assignment === 'lot' ? null : 'russia');
  await settleAll(phones);
  if (start) {
    await a.runner.start(anaBeaCarlRoster(a.runner.view.players));
    await settleAll(phones);
  }
  await prelude(a, b, c);
  await settleAll(phones);
  for (const p of phones) {
    await p.replica.flush();
    await p.persisted.flush();
  }
  await settleAll(phones);
  for (const p of phones) p.close();
  return { gameId, devices: [da, db, dc] };
}

interface Game {
  readonly a: TestPhone;
  readonly c: TestPhone;
  /** Runs what Bea's player does on her first phone, until it is done or the page is killed. */
  readonly bea: (act: (b: TestPhone) => Promise<unknown>) => Promise<void>;
  readonly settle: () => Promise<void>;
}

interface Scenario {
  readonly snapshot: () => Promise<Snapshot>;
  /** What the players do in the phase (the phones' duties do the rest). */
  play(g: Game): Promise<void>;
  /** What Bea's player does on the reopened phone, seeing its view. */
  reopened(b: TestPhone): Promise<void>;
  /** What a phone made of the phase once it is over (the same on every phone), undefined while it is open. */
  result(p: Phone): string | undefined;
}

/**
 * Spring 1901: Ana has sealed, then Bea (Germany) seals, then Carl; the FINALs (Bea's by her duty
 * loop, Carl's with his commit), the LOCKs and the REVEALs follow on their own. Ana's seals are
 * made before the snapshot, to keep the replays short: her commits arriving at Bea's phone are
 * writes of the kind of Carl's commit and the later entries arriving, covered here.
 */
function movement(): Scenario {
  const phase = '1901-spring-movement';
  return {
    snapshot: () =>
      snapshot('choice', true, async (a) => {
        for (const power of a.runner.current.me.powers) await a.runner.seal(power, []);
      }),
    async play({ c, bea, settle }) {
      await bea((b) => b.runner.seal('germany', []));
      await settle();
      await c.runner.seal('russia', []);
      await settle();
    },
    async reopened(b) {
      // Her commit never left: she sees Germany unsealed, and seals again.
      const current = b.runner.view.current;
      if (current?.key === phase && !current.committed.includes('germany')) await b.runner.seal('germany', []);
    },
    result: (p) => p.runner.view.phases.find((ph) => ph.key === phase)?.stateHash,
  };
}

/** Every power's orders of the open phase sealed by the phone that plays it (holds, but for `orders`). */
async function sealAll(phones: TestPhone[], orders: Partial<Record<Power, Order[]>> = {}): Promise<void> {
  for (const p of phones) for (const power of p.runner.current.me.powers) await p.runner.seal(power, orders[power] ?? []);
  await settleAll(phones);
}

/**
 * Winter 1901: Germany took Denmark (F Kie-Den in the spring), so Bea alone has orders: she builds
 * a fleet in Kiel. Her seal is the phase's last, so her FINAL leaves with her commit, both written
 * with the FINAL's name in one reservation (outbox.ts SendOptions.with).
 */
function winter(): Scenario {
  const phase = '1901-winter-adjustment';
  const build: Order[] = [{ kind: 'build', power: 'germany', unit: { type: 'F', loc: 'kie' } }];
  return {
    snapshot: () =>
      snapshot('choice', true, async (a, b, c) => {
        await sealAll([a, b, c], { germany: [{ kind: 'move', power: 'germany', unit: { type: 'F', loc: 'kie' }, to: 'den' }] });
        await sealAll([a, b, c]);
        if (a.runner.view.current?.key !== phase || a.runner.view.current.required.join() !== 'germany')
          throw new Error(`not Germany's winter: ${a.runner.view.current?.key} ${a.runner.view.current?.required.join()}`);
      }),
    async play({ bea, settle }) {
      await bea((b) => b.runner.seal('germany', build));
      await settle();
    },
    async reopened(b) {
      const current = b.runner.view.current;
      if (current?.key === phase && !current.committed.includes('germany')) await b.runner.seal('germany', build);
    },
    result: (p) => p.runner.view.phases.find((ph) => ph.key === phase)?.stateHash,
  };
}

/** The START of a game by lot, the acceptances, the lot's commits, LOCKs and REVEALs: all automatic. */
const lot: Scenario = {
  snapshot: () => snapshot('lot', false),
  async play({ a, settle }) {
    await a.runner.startLot(a.runner.view.players.map((p) => p.key));
    await settle();
  },
  reopened: () => Promise.resolve(),
  result: (p) => (p.runner.view.status === 'playing' ? JSON.stringify(p.runner.view.roster) : undefined),
};

interface Outcome {
  /** Bea's writes during the phase, in the order they were numbered. */
  readonly writes: readonly Written[];
  /** The write the page was killed at (undefined: it never came). */
  readonly killedAt?: Written;
  readonly problems: readonly string[];
  readonly ms: number;
}

/**
 * Plays the scenario from its snapshot (copies of the three devices), Bea's writes numbered; with a
 * plan, her page is killed at that write, and reopened on the real store once the others have done
 * what they can.
 */
async function replay(scenario: Scenario, snap: Snapshot, plan: CrashPlan | null): Promise<Outcome> {
  const t0 = performance.now();
  const [da, db, dc] = await Promise.all(snap.devices.map((d) => cloneDevice(d, snap.gameId, clock)));
  const net = new Net();
  const crash = crashStore(db!.store, plan, () => net.kill(b));
  const a = await openOn(da!, snap.gameId, now);
  const c = await openOn(dc!, snap.gameId, now);
  const b: TestPhone = await openOn(db!, snap.gameId, now, crash);
  for (const p of [a, b, c]) net.add(p);
  await net.settle();
  crash.arm();
  await scenario.play({
    a,
    c,
    // What she asked for fails only if her page was killed meanwhile (its writes never answer).
    bea: async (act) => {
      await Promise.race([
        act(b).catch((e: unknown) => {
          if (!crash.killed()) throw e;
        }),
        crash.died,
      ]);
    },
    settle: () => net.settle(),
  });

  const alive: Phone[] = [a, c];
  if (crash.killed()) {
    // Reopened later on the real store, as the app opens a game; back online.
    const b2 = await openOn(db!, snap.gameId, now);
    net.add(b2);
    await net.settle();
    await scenario.reopened(b2);
    alive.push(b2);
  } else alive.push(b);
  await net.settle();

  const problems: string[] = [];
  const results = alive.map((p) => scenario.result(p));
  if (results.some((h) => h === undefined))
    problems.push(`the phase did not complete on every phone (Ana, Carl, Bea: ${results.map((h) => (h === undefined ? 'open' : 'done')).join(', ')})`);
  else if (new Set(results).size !== 1) problems.push(`the phones disagree on the phase's outcome: ${results.join(', ')}`);
  for (const p of alive) if (p.runner.view.misconduct.length > 0) problems.push(`misconduct reported: ${JSON.stringify(p.runner.view.misconduct)}`);
  const beas = entriesBy(alive, db!.identity.id);
  problems.push(...onceProblems(beas));
  // No name without its message: every once-only name Bea's device holds was sent (a name taken
  // with nothing sent is a step nobody will do; in a game with escrow the others may open her
  // commits without her REVEAL, so the phase's completion alone would not show it).
  const sent = new Set([...beas.values()].map(onceName));
  for (const name of await reservedNames(db!.store, snap.gameId)) if (!sent.has(name)) problems.push(`${name} reserved on Bea's device and never sent`);
  const killedAt = crash.killedAt();
  const outcome = { writes: crash.writes(), ...(killedAt === undefined ? {} : { killedAt }), problems, ms: performance.now() - t0 };
  net.close();
  for (const d of [da, db, dc]) d!.store.close();
  return outcome;
}

/**
 * Kills the page at each write the dry run numbered, before it lands and just after: every replay
 * must have reached that write and completed the phase cleanly.
 */
async function killEverywhere(scenario: Scenario, snap: Snapshot, dry: Outcome): Promise<void> {
  const failures: string[] = [];
  let replays = 0;
  let total = 0;
  for (const w of dry.writes) {
    for (const when of ['before', 'after'] as const) {
      // The writes of a replay may come in another order than the dry run's (the phones' timers
      // and transactions interleave): k names a moment of the phase, the label says which write.
      // A replay that made fewer writes (one done in idle time came after the phase) is played
      // again, twice at most: every k must be killed at.
      let o: Outcome | undefined;
      for (let tries = 0; tries < 3 && o?.killedAt === undefined; tries++) {
        o = await replay(scenario, snap, { k: w.index, when });
        replays++;
        total += o.ms;
        if (o.problems.length > 0) break;
      }
      const at = o!.killedAt === undefined ? `never reached: the replay made ${o!.writes.length} writes` : o!.killedAt.label;
      if (o!.killedAt === undefined || o!.problems.length > 0)
        failures.push(`killed ${when} write ${w.index} (${at}; dry run: ${w.label}): ${o!.problems.join('; ')}`);
    }
  }
  const listing = dry.writes.map((w) => `  ${w.index} ${w.label}`).join('\n');
  expect(failures, `${replays} replays (${Math.round(total)} ms) of the dry run's ${dry.writes.length} writes:\n${listing}\n`).toEqual([]);
}

/** The dry run: the phase completes cleanly, and its writes are numbered (a failure lists them). */
async function dryRun(scenario: Scenario, snap: Snapshot): Promise<Outcome> {
  const dry = await replay(scenario, snap, null);
  expect(dry.problems).toEqual([]);
  expect(dry.writes.length).toBeGreaterThan(0);
  return dry;
}

describe('a phone killed at any write of a phase, then reopened (issue 29)', () => {
  it('Spring 1901, Bea sealing between the others: killed before or after each of her writes, the phase completes, nothing signed twice', async () => {
    const scenario = movement();
    const snap = await scenario.snapshot();
    await killEverywhere(scenario, snap, await dryRun(scenario, snap));
  });

  it('Winter 1901, Bea building alone: killed before or after each write, the phase completes, nothing signed twice', async () => {
    const scenario = winter();
    const snap = await scenario.snapshot();
    await killEverywhere(scenario, snap, await dryRun(scenario, snap));
  });

  it('the START and the lot (acceptance, lot commit, LOCK, REVEAL): killed before or after each write, the game starts, nothing signed twice', async () => {
    const snap = await lot.snapshot();
    await killEverywhere(lot, snap, await dryRun(lot, snap));
  });
});
