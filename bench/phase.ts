// Phase latency (issues 3 and 17): seven Chromium pages, each in its own browser and each a phone holding one power with the
// app's plumbing (replica, IndexedDB, signatures checked ahead: tests/e2e/pages/bench/main.ts),
// joined through the real net layer over loopback WebRTC and running the real protocol. Each timed phase every awaited
// power seals random legal orders; the phones then lock and reveal on their own (each LOCK carrying its ACK of the phase before, as the app's). As at a
// table, all but one seal first (done, they mark their orders final: the early FINAL) and the last
// seals once their commits and FINALs are on every phone; we time
// from that last commit's start (reserve, seal, send) to the moment the last page's reduced view
// has the phase resolved (a few more phases, where all seal at the same instant, give a stress figure),
// and count the data-channel bytes each page sent during the phase against the phase's payload (the
// bytes of the entries it added). Pages stamp their own times; the bench only polls for them.
import type { Browser, Page } from 'playwright-core';
import { formatInvite, newRoomPassword } from '../src/net';
import { acceptStart, createGame, createIdentity, joinGame, RULES_ENGINE_VERSION, startGame, toBase64, type Settings } from '../src/protocol';
import { POWERS, type Power } from '../src/rules';
import { PEER_WRITES } from '../src/ui/game/peer-writes';
import { prng } from '../src/util/prng';
import { launchChromium } from '../tests/e2e/browser';
import { startPhasePage } from '../tests/e2e/pages/bench/serve';
import { report, summarise } from './report';

/** Phases timed as players seal: six seal and mark their orders final (their FINALs go at once),
 *  their commits and FINALs reach every phone, then the last one seals alone and the clock runs
 *  from that seal (the latency a table feels after its last tap). */
const STAGGERED = 10;
/** Then phases where every phone seals at the same instant: a stress figure (seven seals, and
 *  every phone receiving them, all inside the timed window), printed beside the first. */
const TOGETHER = 4;
const PHASES = STAGGERED + TOGETHER;
/** How long the bench lets the earlier seals settle (their writes, the reductions they cause)
 *  before the last seal of a staggered phase: 300 ms after peers' writes, which wait for a quiet
 *  moment (src/ui/game/peer-writes.ts), would start. At a table the last seal comes seconds later. */
const SETTLE_MS = PEER_WRITES.quietMs + 300;
/** Issue 17: bytes sent per phone per phase at most twice the phase's payload. */
const BYTES_TARGET_RATIO = 2;
/** How often the bench asks the pages whether they are done. The figures are the pages' own
 *  timestamps, so this only bounds the waiting; asking seven pages often takes processor time
 *  from the pages being measured (two shared cores). */
const POLL_MS = 100;
/** The steps of a phase each page stamps, in order: when it knew every commit was in, when its own
 *  FINAL was stored and sent, and so on (tests/e2e/pages/bench/main.ts). */
const STEPS = ['commits-in', 'final-sent', 'finals-in', 'lock-sent', 'locks-in', 'reveal-sent'] as const;
/** Sequence numbers the pages start from, above those of the setup messages made here. */
const FIRST_PAGE_SEQ = 100;

interface Phone {
  init(signSeed: string, boxSecret: string, power: Power, firstSeq: number): void;
  appendAll(messages: readonly string[]): void;
  commit(seed: number, final?: boolean): Promise<number | null>;
  summary(): {
    count: number;
    phases: number;
    current: string | null;
    required: Power[];
    /** Keys of the open ballot: each signs a LOCK and a REVEAL. */
    ballotKeys: number;
    errors: string[];
    reduceMs: number;
    reductions: number;
    publishMs: number;
    publishes: number;
  };
  payloadBytes(): number;
  probeWrites(n: number): Promise<number[]>;
  times(): Record<string, { ms: number; n: number }>;
  nativeEd25519(): Promise<boolean>;
  revealedAt(key: string): number | null;
  marks(key: string): Record<string, number>;
  trace(from: number): [number, string][];
  phasesAt(n: number): number | null;
  untilPhases(n: number): Promise<number | null>;
  webrtcPeers(): number;
  bytesSent(): Promise<number>;
}
type W = { phone: Phone };

const SETTINGS: Settings = {
  variant: 'standard',
  engine: RULES_ENGINE_VERSION,
  rules: {},
  deadlines: { movement: 86_400_000, retreat: 21_600_000, adjustment: 21_600_000, lot: 3_600_000, reveal: 3_600_000 },
  endYear: null,
  signaling: 'ws://127.0.0.1',
  assignment: 'choice',
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Starts the V8 sampling profiler on a page; the returned function stops it and gives the profile. */
async function startProfile(page: Page): Promise<() => Promise<Profile>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async () => ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile;
}

/** Each sample's stack, innermost first, as function names: one walk for both reports below. */
function sampleStacks(p: Profile): { stack: string[]; ms: number }[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return p.samples.map((id, i) => {
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame.functionName || '(anon)');
    return { stack, ms: (p.timeDeltas[i] ?? 0) / 1000 };
  });
}

/** Self and inclusive time per function name (summed over pages). */
function reportProfiles(profiles: readonly Profile[]): void {
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (const p of profiles)
    for (const { stack, ms: dt } of sampleStacks(p)) {
      total += dt;
      self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + dt);
      for (const key of new Set(stack)) incl.set(key, (incl.get(key) ?? 0) + dt);
    }
  const per = (ms: number) => `${(ms / profiles.length / PHASES).toFixed(1)} ms`;
  // PACTO_PROFILE_TREE=a,b: the call tree under each named function, merged by name path.
  const roots = (process.env.PACTO_PROFILE_TREE ?? '').split(',').filter((r) => r !== '');
  const tree = new Map<string, number>();
  for (const p of profiles)
    for (const { stack: inner, ms: dt } of sampleStacks(p)) {
      const stack = [...inner].reverse();
      const r = stack.findIndex((f) => roots.includes(f));
      if (r < 0) continue;
      for (let d = r; d < Math.min(stack.length, r + 6); d++) {
        const path = stack.slice(r, d + 1).join(' > ');
        tree.set(path, (tree.get(path) ?? 0) + dt);
      }
    }
  if (roots.length > 0)
    report(
      'phase profile: call trees',
      [...tree]
        .filter(([, v]) => v / profiles.length / PHASES >= Number(process.env.PACTO_PROFILE_MIN ?? 4))
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([k, v]) => ['  '.repeat(k.split(' > ').length - 1) + k.split(' > ').at(-1)!, per(v)]),
    );
  const top = (m: Map<string, number>, n: number): [string, string][] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => [k, per(v)]);
  report(`phase profile: per page per phase (sampled, total ${per(total)} incl. idle)`, [
    ['--- inclusive', ''],
    ...top(incl, 60),
    ['--- self', ''],
    ...top(self, 30),
  ]);
}

async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The lobby, made here with seeded identities: creation, seven joins, start and acceptances. */
function setup(seed: number) {
  const next = prng(seed);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
  const seats = POWERS.map((power) => {
    const signSeed = bytes(32);
    const boxSecret = bytes(32);
    return { power, signSeed, boxSecret, me: createIdentity(signSeed, boxSecret), seq: 0 };
  });
  const time = Date.now();
  const stamp = (s: (typeof seats)[number]) => ({ seq: s.seq++, time });
  const creator = seats[0]!;
  const { gameId, message } = createGame(creator.me, bytes(16), SETTINGS, stamp(creator));
  const log = [message.bytes];
  for (const s of seats) log.push(joinGame(s.me, gameId, s.power, s.power, stamp(s)).bytes);
  const roster = Object.fromEntries(seats.map((s) => [s.power, s.me.id])) as Record<Power, string>;
  const start = startGame(creator.me, gameId, roster, Object.fromEntries(seats.map((s) => [s.me.id, s.me.escrowPublicKey])), stamp(creator));
  log.push(start.bytes);
  for (const s of seats.slice(1)) log.push(acceptStart(s.me, gameId, start, stamp(s)).bytes);
  return { gameId, seats, log };
}

export async function benchPhase(): Promise<void> {
  const site = await startPhasePage();
  const browsers: Browser[] = [];
  try {
    try {
      browsers.push(await launchChromium());
    } catch (e) {
      report('phase: seven phones', [['skipped', (e as Error).message]]);
      return;
    }
    const game = setup(20261121);
    const link = formatInvite(site.base, { gameId: game.gameId, password: newRoomPassword(), signaling: [] });
    const pages: Page[] = [];
    for (const s of game.seats) {
      // Each phone its own browser, as seven phones are: pages of one browser share its
      // IndexedDB backend and network service, which made every page's strict write queue
      // behind the other six pages' writes (own entry reserve -> sent about 2.5x longer).
      const browser = browsers[pages.length] ?? (await launchChromium());
      if (!browsers.includes(browser)) browsers.push(browser);
      const page = await (await browser.newContext()).newPage();
      await page.goto(link);
      await page.waitForFunction(() => (window as unknown as Partial<W>).phone !== undefined);
      await page.evaluate(([a, b, p, q]) => (window as unknown as W).phone.init(a, b, p, q), [
        toBase64(s.signSeed),
        toBase64(s.boxSecret),
        s.power,
        FIRST_PAGE_SEQ,
      ] as const);
      pages.push(page);
    }
    // As source text: tsx wraps named functions in a helper the page does not have.
    const phone = <T>(p: Page, f: (ph: Phone) => T | Promise<T>): Promise<T> => p.evaluate(`(${f.toString()})(window.phone)`) as Promise<T>;
    await until(
      'every page to connect to every other',
      () => Promise.all(pages.map((p) => phone(p, (ph) => ph.webrtcPeers()))),
      (ns) => ns.every((n) => n === pages.length - 1),
    );
    await pages[0]!.evaluate((log) => (window as unknown as W).phone.appendAll(log), game.log.map(toBase64));
    await until(
      'the lobby to reach every page',
      () => Promise.all(pages.map((p) => phone(p, (ph) => ph.summary()))),
      (ss) => ss.every((s) => s.current !== null),
    );

    const latencies: number[] = [];
    const togetherLatencies: number[] = [];
    const toLastReveal: number[] = [];
    /** Per step, per phase: last commit -> the last page to reach the step. */
    const steps = new Map<string, number[]>(STEPS.map((s) => [s, []]));
    const bytesPerPage: number[] = [];
    const payloadPerPhase: number[] = [];
    const reduceBefore = await Promise.all(pages.map((p) => phone(p, (ph) => ph.summary())));
    const keys: string[] = [];
    // PACTO_PROFILE=1: a CPU profile of every page over the timed phases, self time by function.
    if (process.env.PACTO_PROFILE === '1') {
      const one = await pages[0]!.evaluate(() => (window as unknown as W).phone.probeWrites(10));
      const all = await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).phone.probeWrites(10))));
      report('phase: a strict write of the reservation (its own database), idle', [
        ['one page alone', one.map((t) => t.toFixed(1)).join(' ')],
        ['all pages at once, page 0', all[0]!.map((t) => t.toFixed(1)).join(' ')],
      ]);
    }
    const profiling = process.env.PACTO_PROFILE === '1' ? await Promise.all(pages.map((p) => startProfile(p))) : [];
    for (let phase = 0; phase < PHASES; phase++) {
      const before = await phone(pages[0]!, (ph) => ph.summary());
      keys.push(before.current ?? '?');
      const sentBefore = await Promise.all(pages.map((p) => phone(p, (ph) => ph.bytesSent())));
      const payloadBefore = await phone(pages[0]!, (ph) => ph.payloadBytes());
      const commit = (i: number, final = false) =>
        pages[i]!.evaluate(([seed, f]) => (window as unknown as W).phone.commit(seed, f), [phase * 7 + i + 1, final] as const);
      const together = phase >= STAGGERED;
      let committedAt: (number | null)[];
      if (together) committedAt = await Promise.all(pages.map((_, i) => commit(i)));
      else {
        // The last to seal: one of the awaited powers, a different one each phase.
        const awaited = game.seats.flatMap((s, i) => (before.required.includes(s.power) ? [i] : []));
        const last = awaited[phase % Math.max(1, awaited.length)] ?? 0;
        // The earlier sealers are done: they mark their orders final as they seal (their FINALs go at once).
        committedAt = await Promise.all(pages.map((_, i) => (i === last ? Promise.resolve(null) : commit(i, true))));
        // Each earlier sealer's commit and FINAL.
        const early = 2 * committedAt.filter((t) => t !== null).length;
        await until(
          'the earlier seals to reach every page',
          () => Promise.all(pages.map((p) => phone(p, (ph) => ph.summary().count))),
          (cs) => cs.every((c) => c >= before.count + early),
        );
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        committedAt[last] = await commit(last);
      }
      // Each page answers once its view has the phase resolved (no polling during the timed window).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const resolvedAt = await Promise.race([
        Promise.all(pages.map((p) => p.evaluate((n) => (window as unknown as W).phone.untilPhases(n), before.phases + 1))),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`bench: timed out waiting for phase ${before.current} to resolve on every page`)), 60_000);
        }),
      ]).finally(() => clearTimeout(timer));
      if (resolvedAt.some((t) => t === null)) throw new Error(`bench: phase ${before.current} has no resolution time on a page`);
      const committed = committedAt.filter((t): t is number => t !== null);
      if (committed.length === 0) throw new Error(`bench: phase ${before.current} awaited no power`);
      const lastCommit = Math.max(...committed);
      // PACTO_TRACE=1: every page's events of each staggered phase (data-channel frames in and out,
      // admissions, reductions, signing, reservations landing), in time order from the last seal.
      if (process.env.PACTO_TRACE === '1' && !together) {
        const traces = await Promise.all(pages.map((p) => p.evaluate((f) => (window as unknown as W).phone.trace(f), lastCommit)));
        const all = traces.flatMap((t, i) => t.map(([at, w]) => [at - lastCommit, i, w] as const)).sort((a, b) => a[0] - b[0]);
        console.log(
          `--- phase ${before.current} at ${lastCommit} (last sealer page ${committedAt.findIndex((t) => t === lastCommit)}), resolved ${(resolvedAt as number[]).map((t) => t - lastCommit).join(' ')}`,
        );
        for (const [at, i, w] of all) if (at <= Math.max(...(resolvedAt as number[])) - lastCommit + 5) console.log(`${String(at).padStart(5)} p${i} ${w}`);
      }
      (together ? togetherLatencies : latencies).push(Math.max(...(resolvedAt as number[])) - lastCommit);
      if (!together) {
        const revealed = await Promise.all(pages.map((p) => p.evaluate((k) => (window as unknown as W).phone.revealedAt(k), before.current ?? '')));
        toLastReveal.push(Math.max(...revealed.filter((t): t is number => t !== null)) - lastCommit);
        const marks = await Promise.all(pages.map((p) => p.evaluate((k) => (window as unknown as W).phone.marks(k), before.current ?? '')));
        for (const s of STEPS) {
          const at = marks.map((m) => m[s]).filter((t): t is number => t !== undefined);
          if (at.length > 0) steps.get(s)!.push(Math.max(...at) - lastCommit);
        }
      }
      // Every commit, FINAL and LOCK of the phase on every page before counting bytes (the REVEALs
      // are in once the phase resolved: those it needed, the others are not due any more; the ACK
      // of a phase rides in the next phase's LOCK, as the app sends it: ackCarriedByLock).
      const expected = before.count + 2 * committed.length + before.ballotKeys;
      await until(
        'every entry of the phase to reach every page',
        () => Promise.all(pages.map((p) => phone(p, (ph) => ph.summary().count))),
        (cs) => cs.every((c) => c >= expected),
      );
      await new Promise((r) => setTimeout(r, 200));
      const sentAfter = await Promise.all(pages.map((p) => phone(p, (ph) => ph.bytesSent())));
      bytesPerPage.push(sentAfter.reduce((sum, b, i) => sum + b - sentBefore[i]!, 0) / pages.length);
      payloadPerPhase.push((await phone(pages[0]!, (ph) => ph.payloadBytes())) - payloadBefore);
    }
    if (profiling.length > 0) reportProfiles(await Promise.all(profiling.map((stop) => stop())));
    // PACTO_TIMES=1: the table below without the profiler (which slows the pages ~2x).
    if (profiling.length > 0 || process.env.PACTO_TIMES === '1') {
      const times = await Promise.all(pages.map((p) => phone(p, (ph) => ph.times())));
      const names = [...new Set(times.flatMap((t) => Object.keys(t)))].sort();
      report(
        'phase: where a page waited, all phases, mean per occurrence (count per page)',
        names.map((n) => {
          const all = times.map((t) => t[n] ?? { ms: 0, n: 0 });
          const ms = all.reduce((s, t) => s + t.ms, 0);
          const count = all.reduce((s, t) => s + t.n, 0);
          return [n, `${(ms / Math.max(1, count)).toFixed(1)} ms (${(count / pages.length).toFixed(1)})`];
        }),
      );
    }
    const errors = (await Promise.all(pages.map((p) => phone(p, (ph) => ph.summary().errors)))).flat();
    if (errors.length > 0) throw new Error(`bench: a phone failed: ${errors[0]}`);
    const reduceAfter = await Promise.all(pages.map((p) => phone(p, (ph) => ph.summary())));
    const reducePerPhase = reduceAfter.reduce((sum, r, i) => sum + r.reduceMs - reduceBefore[i]!.reduceMs, 0) / pages.length / PHASES;
    const publishWait =
      reduceAfter.reduce((sum, r, i) => sum + r.publishMs - reduceBefore[i]!.publishMs, 0) /
      reduceAfter.reduce((sum, r, i) => sum + r.publishes - reduceBefore[i]!.publishes, 0);
    const native = await Promise.all(pages.map((p) => phone(p, (ph) => ph.nativeEd25519())));
    const reductionsPerPhase = reduceAfter.reduce((sum, r, i) => sum + r.reductions - reduceBefore[i]!.reductions, 0) / pages.length / PHASES;
    const lat = summarise(latencies);
    const tog = summarise(togetherLatencies);
    const rev = summarise(toLastReveal);
    const bytes = summarise(bytesPerPage);
    const payload = summarise(payloadPerPhase);
    const ratios = summarise(bytesPerPage.map((b, i) => b / payloadPerPhase[i]!));
    report(`phase: ${pages.length} Chromium phones over loopback WebRTC, real protocol, ${PHASES} phases (${keys[0]} .. ${keys.at(-1)})`, [
      [
        `last seal, the others sealed and marked final earlier (reserve, seal, keep the secret, send) -> every page shows the result, median of ${STAGGERED}`,
        `${lat.median} ms`,
      ],
      ['  p95 / mean', `${lat.p95} ms / ${lat.mean.toFixed(1)} ms`],
      ['  target', 'median < 300 ms, p95 < 600 ms'],
      [`  stress: all seven seal at the same instant, median / max of ${TOGETHER}`, `${tog.median} ms / ${Math.max(...togetherLatencies)} ms`],
      ['  of which last commit -> last phone reveals, median', `${rev.median} ms`],
      ['  steps, last commit -> the last phone to reach each, median', STEPS.map((s) => `${s} ${summarise(steps.get(s)!).median}`).join(', ')],
      ['reduceLog time per phone per phase, mean', `${reducePerPhase.toFixed(0)} ms in ${reductionsPerPhase.toFixed(1)} reductions`],
      ["a phone's own entry: its number reserved on disk, signed, then sent (the entry's own write lands after), mean", `${publishWait.toFixed(0)} ms`],
      ['signatures checked ahead by the platform Ed25519 (WebCrypto)', `${native.filter(Boolean).length} of ${pages.length} phones`],
      ['data-channel bytes sent per phone per phase, median', `${Math.round(bytes.median)} B`],
      ['  p95', `${Math.round(bytes.p95)} B`],
      ['  the phase payload (bytes of its entries), median', `${Math.round(payload.median)} B`],
      ['  ratio to the payload, median / p95', `${ratios.median.toFixed(2)} / ${ratios.p95.toFixed(2)}`],
      ['  target ratio', `<= ${BYTES_TARGET_RATIO}`],
    ]);
  } finally {
    for (const b of browsers) await b.close().catch(() => undefined);
    await site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPhase();
