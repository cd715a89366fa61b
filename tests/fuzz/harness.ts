// The fuzz of issue 10: three phones (GameReplicas) receive an honest game and, mixed in at random,
// mutated Yjs updates, mutated entries and a hostile player's floods, in random order and to
// random phones. After each episode the phones catch up cleanly (Yjs handshakes, anti-entropy, the
// carrier) and must agree. A case is one hostile input. Checked for every case and episode:
// - nothing thrown by the gate, admission or anti-entropy;
// - no honest entry lost: once a phone admits one, it keeps it, and after the catch-up every
//   phone holds every honest entry;
// - after the catch-up the three phones hold the same entries and reduce to the same state hash.
// Used by tests/fuzz/replicas.test.ts (10^4 cases in `npm test`) and scripts/fuzz.ts (`npm run fuzz`).
import * as Y from 'yjs';
import { AntiEntropyLink, GameReplica, type PeerRef } from '../../src/net';
import { acknowledge, hashHex, reduceLog, stateHash, toBase64, type Identity, type PayloadBody, type Verifier } from '../../src/protocol';
import { prng } from '../../src/util/prng';
import { nativeSignMessage, nodeVerifier } from '../native-ed25519';
import { identity, payloadOf, playPhase, randomPhaseOrders, rng, startedGame, T0, view } from '../protocol/helpers';

export interface Fixture {
  readonly gameId: string;
  /** Honest entries, and the honest updates that carry them (three writers, one update per entry). */
  readonly honest: readonly Uint8Array[];
  readonly honestIds: ReadonlySet<string>;
  readonly updates: readonly Uint8Array[];
  /** Valid entries a hostile player and strangers signed: floods over quotas, late JOINs, forks. */
  readonly hostile: readonly Uint8Array[];
  readonly verifier: Verifier;
}

const HOSTILE_POWER = 'turkey';

/** An honest game two phases in, with press, and a hostile player's material. Deterministic. */
export function fixture(seed = 1): Fixture {
  const game = startedGame(seed);
  const r = rng(seed);
  let v = view(game);
  for (let i = 0; v.phases.length < 2; i++) v = playPhase(game, randomPhaseOrders(v, r.int), T0 + 1000 * (i + 1));
  const gameId = game.gameId;
  const honest = game.log.filter((e) => payloadOf(e).from !== game.byPower[HOSTILE_POWER].me.id);
  const writers = [new Y.Doc(), new Y.Doc(), new Y.Doc()];
  writers.forEach((d, i) => (d.clientID = 900 + i));
  const updates: Uint8Array[] = [];
  game.log.forEach((e, i) => {
    const d = writers[i % 3]!;
    const before = Y.encodeStateVector(d);
    d.getArray<Uint8Array>('log').push([e]);
    updates.push(Y.encodeStateAsUpdate(d, before));
  });
  const turkey = game.byPower[HOSTILE_POWER].me;
  const sign = (who: Identity, body: PayloadBody) => nativeSignMessage(who, body);
  const phase = v.current!.key;
  const hostile: Uint8Array[] = [];
  for (let i = 0; i < 40; i++) {
    hostile.push(
      sign(turkey, {
        type: 'commit',
        game: gameId,
        seq: 1000 + ((i * 17) % 40),
        time: T0,
        phase,
        power: 'turkey',
        sealed: 'AAAA',
        hash: hashHex(new Uint8Array(3)),
        escrow: { c: ['A'.repeat(42) + 'AEIMQUYcgkosw048'[i % 16]!], e: null, s: [] },
      }),
    );
  }
  for (let i = 0; i < 20; i++)
    hostile.push(
      sign(identity(300 + i), {
        type: 'join',
        game: gameId,
        seq: 0,
        time: T0,
        name: `late${i}`,
        box: '00'.repeat(32),
        escrow: identity(300 + i).escrowPublicKey,
        power: null,
      }),
    );
  for (let i = 0; i < 20; i++) hostile.push(acknowledge(turkey, gameId, `${1950 + i}-fall-movement`, 'ab'.repeat(16), { seq: 2000 + i, time: T0 }).bytes);
  for (let i = 0; i < 20; i++)
    hostile.push(
      sign(turkey, {
        type: 'chat',
        game: gameId,
        seq: 3000 + i,
        time: T0,
        keys: {},
        nonce: 'A'.repeat(32),
        sealed: toBase64(new Uint8Array(3 + i).fill(0x55)),
      }),
    );
  // The hostile player's real entries of the game: honest phones must agree on them too.
  for (const e of game.log) if (!honest.includes(e)) hostile.push(e);
  const verifier = nodeVerifier();
  const opened = honest.map((e) => hashHex(e.subarray(64)));
  return { gameId, honest, honestIds: new Set(opened), updates, hostile, verifier };
}

export interface EpisodeResult {
  readonly cases: number;
  readonly failures: string[];
}

type Rand = { next(): number; int(n: number): number; pick<T>(list: readonly T[]): T };

function rand(seed: number): Rand {
  const next = prng(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)]! };
}

/** One hostile input: an update (bytes for receive) or entries (for anti-entropy's ENTRIES). */
type Case = { update: Uint8Array } | { entries: Uint8Array[] };

/** An update holding `entries` under Yjs client `client` from clock `clock` on (squatting whatever is there). */
function wrap(entries: readonly Uint8Array[], client: number, clock = 0): Uint8Array {
  const d = new Y.Doc();
  d.clientID = client;
  d.getArray<Uint8Array>('log').push([...Array.from({ length: clock }, () => Uint8Array.of(0)), ...entries]);
  const whole = Y.encodeStateAsUpdate(d);
  return clock === 0 ? whole : Y.diffUpdate(whole, Y.encodeStateVector(new Map([[client, clock]])));
}

function mutate(bytes: Uint8Array, r: Rand): Uint8Array {
  const kind = r.int(4);
  if (kind === 0) {
    const m = bytes.slice();
    for (let i = 0, n = 1 + r.int(4); i < n; i++) m[r.int(m.length)] = r.int(256);
    return m;
  }
  if (kind === 1) return bytes.slice(0, r.int(bytes.length));
  if (kind === 2) {
    const at = r.int(bytes.length);
    const extra = Uint8Array.from({ length: 1 + r.int(8) }, () => r.int(256));
    const m = new Uint8Array(bytes.length + extra.length);
    m.set(bytes.subarray(0, at));
    m.set(extra, at);
    m.set(bytes.subarray(at), at + extra.length);
    return m;
  }
  const m = bytes.slice();
  const at = r.int(m.length);
  m[at] = m[at]! ^ (1 << r.int(8));
  return m;
}

function makeCase(f: Fixture, r: Rand, docs: readonly Y.Doc[]): Case {
  const kind = r.int(10);
  const honestUpdate = r.pick(f.updates);
  switch (kind) {
    case 0:
    case 1:
      return { update: mutate(honestUpdate, r) };
    case 2: {
      // A whole catch-up, mutated.
      const d = r.pick(docs);
      return { update: mutate(Y.encodeStateAsUpdate(d), r) };
    }
    case 3: {
      // A deletion of items some phone holds.
      const d = r.pick(docs);
      const clone = new Y.Doc();
      Y.applyUpdate(clone, Y.encodeStateAsUpdate(d));
      const log = clone.getArray('log');
      if (log.length === 0) return { update: Uint8Array.of(0, 1, 1, 1, 0, 1) };
      const at = r.int(log.length);
      log.delete(at, 1 + r.int(Math.min(5, log.length - at)));
      return { update: Y.encodeStateAsUpdate(clone, Y.encodeStateVector(d)) };
    }
    case 4: {
      // A squat or a fork: hostile (valid) or mutated entries under an honest writer's ids.
      const client = 900 + r.int(3);
      const entries = Array.from({ length: 1 + r.int(3) }, () => (r.int(2) === 0 ? r.pick(f.hostile) : mutate(r.pick(f.honest), r)));
      return { update: wrap(entries, client, r.int(30)) };
    }
    case 5:
      return { entries: Array.from({ length: 1 + r.int(4) }, () => mutate(r.pick(f.honest), r)) };
    case 6:
      return { entries: Array.from({ length: 1 + r.int(6) }, () => r.pick(f.hostile)) };
    case 7:
      return {
        update: wrap(
          Array.from({ length: 1 + r.int(6) }, () => r.pick(f.hostile)),
          5000 + r.int(1000),
        ),
      };
    case 8: {
      // Other shapes Yjs would take: other roots, text, maps.
      const d = new Y.Doc();
      d.clientID = 6000 + r.int(100);
      const which = r.int(3);
      if (which === 0) d.getArray('other').push([r.pick(f.honest)]);
      else if (which === 1) d.getText('log').insert(0, 'x');
      else d.getArray('log').push([r.pick(f.honest), 'text' as unknown as Uint8Array]);
      return { update: Y.encodeStateAsUpdate(d) };
    }
    default:
      return { update: Uint8Array.from({ length: r.int(64) }, () => r.int(256)) };
  }
}

const peerOf = (name: string): PeerRef => ({ name, origin: name });

/** Runs one episode of `casesPerEpisode` hostile inputs. */
export async function episode(
  f: Fixture,
  seed: number,
  casesPerEpisode: number,
  trace?: (event: string, phones: readonly GameReplica[]) => void,
): Promise<EpisodeResult> {
  const r = rand(seed);
  const failures: string[] = [];
  let now = 0;
  const phones = await Promise.all(
    [0, 1, 2].map(async (i) => {
      const doc = new Y.Doc();
      doc.clientID = 100 + i;
      const ids = rand(seed * 7 + i);
      return GameReplica.open({
        gameId: f.gameId,
        doc,
        verifier: f.verifier,
        carryDelayMs: 1e9,
        random: (n) => Uint8Array.from({ length: n }, () => ids.int(256)),
      });
    }),
  );
  const docs = phones.map((p) => p.doc);
  const held = phones.map(() => new Set<string>());
  const check = (where: string): void => {
    phones.forEach((p, i) => {
      for (const id of held[i]!) if (!p.admission.has(id)) failures.push(`${where}: phone ${i} lost honest entry ${id}`);
      for (const id of f.honestIds) if (p.admission.has(id)) held[i]!.add(id);
    });
  };
  const safely = (where: string, run: () => void): void => {
    try {
      run();
    } catch (e) {
      failures.push(`${where}: threw ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  };
  // Honest updates arrive in random order, to random phones, between the hostile cases.
  const honestQueue = f.updates.map((u) => ({ u, to: r.int(3) }));
  for (let c = 0; c < casesPerEpisode; c++) {
    if (honestQueue.length > 0 && r.int(2) === 0) {
      const { u, to } = honestQueue.splice(r.int(honestQueue.length), 1)[0]!;
      safely('honest', () => phones[to]!.receive(u, peerOf('honest')));
      trace?.(`honest ${f.updates.indexOf(u)} to ${to}`, phones);
    }
    const kase = makeCase(f, r, docs);
    const to = r.int(3);
    safely(`case ${c}`, () => {
      if ('update' in kase) phones[to]!.receive(kase.update, peerOf('hostile'));
      else phones[to]!.receiveEntries(kase.entries, peerOf('hostile'));
    });
    check(`case ${c}`);
    trace?.(`case ${c} to ${to}: ${'update' in kase ? `update ${kase.update.length}` : `entries ${kase.entries.length}`}`, phones);
  }
  // The clean catch-up: every honest update reaches some phone, then handshakes, anti-entropy
  // and the carrier until nothing changes.
  for (const { u, to } of honestQueue) safely('honest', () => phones[to]!.receive(u, peerOf('honest')));
  const queue: (() => void)[] = [];
  const links: AntiEntropyLink[][] = phones.map(() => []);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j) continue;
      links[i]![j] = new AntiEntropyLink(phones[i]!, peerOf(`phone-${j}`), (m) => queue.push(() => links[j]![i]!.receive(m)), { now: () => now });
    }
  }
  for (let round = 0; round < 12; round++) {
    now += 120_000;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        safely('handshake', () => phones[j]!.receive(Y.encodeStateAsUpdate(docs[i]!, Y.encodeStateVector(docs[j]!)), peerOf(`phone-${i}`)));
        links[i]![j]!.sendDigest(true);
      }
    }
    for (let n = 0; queue.length > 0 && n < 100_000; n++) safely('anti-entropy', () => queue.shift()!());
    phones.forEach((p) => safely('carry', () => p.carryNow(true)));
    const ids = phones.map((p) => p.admission.ids().join());
    if (ids.every((x) => x === ids[0]) && phones.every((p) => p.uncarriedCount === 0)) break;
  }
  check('catch-up');
  phones.forEach((p, i) => {
    for (const e of f.honest) {
      const id = hashHex(e.subarray(64));
      if (!p.admission.has(id)) failures.push(`catch-up: phone ${i} lacks honest entry ${id} (${JSON.stringify(p.admission.offer(e, { dryRun: true }))})`);
    }
  });
  const ids = phones.map((p) => p.admission.ids().join());
  if (!ids.every((x) => x === ids[0])) failures.push(`catch-up: phones hold different entries (${phones.map((p) => p.admission.size).join('/')})`);
  const hashes = phones.map((p) => {
    const v = reduceLog(f.gameId, [...p.entries()], { verifier: p.verifier });
    return stateHash(JSON.parse(JSON.stringify(v)) as unknown);
  });
  if (!hashes.every((h) => h === hashes[0])) failures.push('catch-up: state hashes differ');
  phones.forEach((p) => p.destroy());
  return { cases: casesPerEpisode, failures };
}

/** Runs `episodes` episodes from `seed`; returns the cases run and every failure. */
export async function fuzz(options: {
  seed: number;
  episodes: number;
  casesPerEpisode: number;
  fixture?: Fixture;
  onEpisode?: (done: number, cases: number) => void;
}): Promise<{ cases: number; failures: string[] }> {
  const f = options.fixture ?? fixture(options.seed);
  let cases = 0;
  const failures: string[] = [];
  for (let e = 0; e < options.episodes; e++) {
    const res = await episode(f, options.seed * 1_000_003 + e, options.casesPerEpisode);
    cases += res.cases;
    for (const x of res.failures) failures.push(`episode ${e}: ${x}`);
    options.onEpisode?.(e + 1, cases);
    if (failures.length > 20) break;
  }
  return { cases, failures };
}
