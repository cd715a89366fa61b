// Issue 29's crash-anywhere test: a phone's app may be killed between any two of its writes and
// reopened later; every phase must still complete, with each once-only message (the START's
// acceptance, the lot commit, FINAL, LOCK, REVEAL) signed at most once per device.
//
// Bea's phone runs on a store that numbers every write it makes during one phase (every
// reservation, entry, doc update, draft and game-record write: crash-anywhere-helpers WRITES). A
// dry run counts them (N); then, for each k in 0..N-1, the phase is played again from the same
// snapshot and the page is killed at write k, either before it lands (the transaction commits
// nothing) or just after: from then on the phone is cut off, its runner closed and every later
// write or read of its store never answers. It is then reopened on the real store, as the app
// would (a new replica, doc and runner), reconnected, and its player seals again if the view shows
// her power unsealed. The phase must resolve on every phone with one state hash, no phone may report
// misconduct, and Bea's once-only entries must be one per name.
import { beforeAll, describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { isComplete } from '../../src/ui/lobby/roster';
import { cloneDevice, crashStore, entriesBy, Net, onceProblems, openOn, type CrashPlan, type TestPhone, type Written } from './crash-anywhere-helpers';
import { settle as settleAll, threeDevices, type Phone } from './phones';
import type { Device } from '../../src/ui/game/device';

const clock = 1_700_000_000_000;
const now = () => clock;

interface Snapshot {
  readonly gameId: string;
  readonly devices: readonly [Device, Device, Device];
}

/** The game started (Ana every power but Germany and Russia, Bea Germany, Carl Russia), every write landed. */
async function startedSnapshot(): Promise<Snapshot> {
  const { gameId, devices } = await threeDevices(clock);
  const [da, db, dc] = devices;
  const phones = [await openOn(da, gameId, now), await openOn(db, gameId, now), await openOn(dc, gameId, now)];
  const net = new Net();
  for (const p of phones) net.add(p);
  await settleAll(phones);
  const [a, b, c] = phones as [TestPhone, TestPhone, TestPhone];
  await b.runner.join('Bea', 'germany');
  await c.runner.join('Carl', 'russia');
  await settleAll(phones);
  const players = a.runner.view.players;
  const keyOf = (name: string) => players.find((p) => p.name === name)!.key;
  const roster = Object.fromEntries(POWERS.map((p) => [p, p === 'germany' ? keyOf('Bea') : p === 'russia' ? keyOf('Carl') : keyOf('Ana')])) as Record<
    Power,
    string
  >;
  if (!isComplete(roster, players)) throw new Error('incomplete roster');
  await a.runner.start(roster);
  await settleAll(phones);
  for (const p of phones) {
    await p.replica.flush();
    await p.persisted.flush();
  }
  await settleAll(phones);
  for (const p of phones) p.close();
  return { gameId, devices: [da, db, dc] };
}

interface Outcome {
  /** Bea's writes during the phase, in the order they were numbered. */
  readonly writes: readonly Written[];
  /** The write the page was killed at (undefined: it never came). */
  readonly killedAt?: Written;
  readonly problems: readonly string[];
  readonly ms: number;
}

/**
 * Plays Spring 1901 from the snapshot: Ana seals, then Bea (Germany), then Carl; the last seal's
 * burst, the LOCKs and the REVEALs follow on their own. With a plan, Bea's page is killed at that
 * write and reopened once the others have done what they can.
 */
async function movementPhase(snap: Snapshot, plan: CrashPlan | null): Promise<Outcome> {
  const t0 = performance.now();
  const [da, db, dc] = await Promise.all(snap.devices.map((d) => cloneDevice(d, snap.gameId, clock)));
  const net = new Net();
  const crash = crashStore(db!.store, plan, () => net.kill(b));
  const a = await openOn(da!, snap.gameId, now);
  const c = await openOn(dc!, snap.gameId, now);
  const b: TestPhone = await openOn(db!, snap.gameId, now, crash);
  for (const p of [a, b, c]) net.add(p);
  await net.settle();
  const phase = a.runner.view.current!.key;
  crash.arm();

  for (const power of a.runner.current.me.powers) await a.runner.seal(power, []);
  await net.settle();
  await Promise.race([b.runner.seal('germany', []).catch(() => undefined), crash.died]);
  await net.settle();
  await c.runner.seal('russia', []);
  await net.settle();

  const alive: Phone[] = [a, c];
  if (crash.killed()) {
    // Reopened later on the real store, as the app opens a game; back online.
    const b2 = await openOn(db!, snap.gameId, now);
    net.add(b2);
    await net.settle();
    // Its player sees the power unsealed if the commit never left: she seals again.
    const current = b2.runner.view.current;
    if (current?.key === phase && !current.committed.includes('germany')) await b2.runner.seal('germany', []);
    await net.settle();
    alive.push(b2);
  } else alive.push(b);
  await net.settle();

  const problems: string[] = [];
  const hashes = alive.map((p) => p.runner.view.phases.find((ph) => ph.key === phase)?.stateHash);
  if (hashes.some((h) => h === undefined))
    problems.push(`the phase did not resolve on every phone (${hashes.map((h) => (h === undefined ? 'open' : 'resolved')).join(', ')})`);
  else if (new Set(hashes).size !== 1) problems.push(`the phones disagree on the state hash: ${hashes.join(', ')}`);
  for (const p of alive) if (p.runner.view.misconduct.length > 0) problems.push(`misconduct reported: ${JSON.stringify(p.runner.view.misconduct)}`);
  problems.push(...onceProblems(entriesBy(alive, db!.identity.id)));
  const outcome = { writes: crash.writes(), ...(crash.killedAt() === undefined ? {} : { killedAt: crash.killedAt()! }), problems, ms: performance.now() - t0 };
  net.close();
  for (const d of [da, db, dc]) d!.store.close();
  return outcome;
}

describe('a phone killed at any write of a phase (issue 29)', () => {
  let snap: Snapshot;
  let dry: Outcome;
  beforeAll(async () => {
    snap = await startedSnapshot();
    dry = await movementPhase(snap, null);
  });

  it('the dry run resolves the phase and numbers its writes', () => {
    expect(dry.problems).toEqual([]);
    console.log(`dry run: ${dry.writes.length} writes in ${Math.round(dry.ms)} ms\n${dry.writes.map((w) => `  ${w.index} ${w.label}`).join('\n')}`);
    expect(dry.writes.length).toBeGreaterThan(0);
  });

  it('killed before or after each write, reopened: the phase completes, nothing signed twice', async () => {
    const failures: string[] = [];
    let total = 0;
    for (let k = 0; k < dry.writes.length; k++) {
      for (const when of ['before', 'after'] as const) {
        const o = await movementPhase(snap, { k, when });
        total += o.ms;
        const at = o.killedAt === undefined ? 'never reached' : o.killedAt.label;
        // The writes of a replay may come in another order than the dry run's (the phones' timers
        // and transactions interleave): k names a moment of the phase, the label says which write.
        if (o.killedAt === undefined) failures.push(`killed ${when} write ${k}: the replay made only ${o.writes.length} writes`);
        else if (o.problems.length > 0) failures.push(`killed ${when} write ${k} (${at}; dry run: ${dry.writes[k]!.label}): ${o.problems.join('; ')}`);
      }
    }
    console.log(`replays: ${Math.round(total)} ms`);
    expect(failures).toEqual([]);
  });
});
