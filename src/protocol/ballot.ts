// The sealed ballot of one phase (or of the lot): which commit of each slot counts, and whether it
// is opened. Slots are powers in a phase and participant keys in the lot. The rules, each with why
// it is safe, are in README.md ("Which commit counts"); in short:
//  - COMMIT (per slot, as often as its holder likes) seals and escrows;
//  - FINAL (per slot, once) names one commit of the slot, signed by its holder;
//  - LOCK (per key, once) names the FINAL of every awaited slot (the latest commit of a timed-out
//    slot without one) and the key's escrow complaints; nothing is readable yet, so LOCKs are blind;
//  - REVEAL (per key, once) names one LOCK of every key holding an awaited slot and releases the
//    key's secrets and escrow shares; it opens things, it decides nothing.
// A slot's counted commit comes from the counted LOCKs of keys other than its holder (its holder's
// own only when no other key's counts), so no key, whatever slots it holds, picks among another
// slot's commits, and a REVEAL signed after reading cannot change what counts.
// Pure; every cryptographic check is remembered (escrow.ts), so re-reducing costs little.
import { compareText } from './bytes';
import type { Message } from './envelope';
import { checkCommitSecret, checkHolderShare, complaintValidFor, escrowOn, reconstructFor, scalarFromText } from './escrow';
import { PROTOCOL_VERSION, revealLockIds, type Complaint, type EscrowPayload, type LockPayload, type RevealPayload } from './messages';
import { memoUnseal, type EscrowChecks } from './memo';
import { openSealed } from './seal';
import { clockMedian } from './timeout';
import type { BallotView, Ignored, Misconduct } from './view';

export interface BallotCommit {
  readonly id: string;
  readonly slot: string;
  readonly from: string;
  readonly seq: number;
  readonly time: number;
  readonly sealed: string;
  readonly escrow: EscrowPayload;
  /** Its escrow's shares are derived (a version 5 commit), else Feldman's (escrow.ts). */
  readonly derived: boolean;
}

export interface BallotFinal {
  readonly id: string;
  readonly slot: string;
  readonly from: string;
  readonly seq: number;
  readonly time: number;
  readonly commit: string;
}

export interface BallotInput {
  readonly phase: string;
  /** Slots whose orders (or value) are awaited: required and not conceded (timed-out ones included). */
  readonly required: readonly string[];
  readonly holderOf: (slot: string) => string;
  /** Holders of the slots required at the phase's opening, sorted: the escrow community. */
  readonly ballotKeys: readonly string[];
  readonly timedOut: ReadonlySet<string>;
  /** Commits signed by their slot's holder, well formed for the phase (sizes, escrow shape). */
  readonly commits: readonly BallotCommit[];
  /** FINALs signed by their slot's holder (in the lot, the lot commits themselves). */
  readonly finals: readonly BallotFinal[];
  readonly locks: readonly Message<LockPayload>[];
  readonly reveals: readonly Message<RevealPayload>[];
  /** Escrow public key per key (null: its JOINs disagree). */
  readonly escrowKeys: ReadonlyMap<string, string | null>;
  /** Counts the entries the tally visits (tests assert it grows linearly with the entries). */
  readonly work?: WorkCounter;
  /** Where escrow checks are remembered beyond this tally (memo.ts escrowChecksOf). */
  readonly checks?: EscrowChecks;
  /**
   * The game's START is of version 6 or later (messages.ts REVEAL_COMPLAINT_VERSION): a REVEAL may
   * carry a complaint in the place of a share (revealOwes). Older games keep the old rule.
   */
  readonly revealComplaints?: boolean;
  /**
   * The game's version (its CREATE's): from messages.ts CLOCK_VERSION on, finalsAt and locksAt are
   * lower medians (timeout.ts clockMedian); before, upper medians. Default: PROTOCOL_VERSION.
   */
  readonly gameVersion?: number;
}

/** A count of entry visits, for tests that assert linear work (reduce.ts ReduceOptions.work). */
export interface WorkCounter {
  steps: number;
}

export type SlotOutcome =
  | { readonly kind: 'opened'; readonly commit: string; readonly plain: Uint8Array }
  | { readonly kind: 'void'; readonly reason: 'equivocation' | 'escrow-bad-share' | 'unopened' | 'no-commit' | 'bad-secret'; readonly commit?: string }
  | { readonly kind: 'pending'; readonly commit?: string };

export interface BallotResult {
  readonly outcomes: ReadonlyMap<string, SlotOutcome>;
  readonly closed: boolean;
  readonly view: BallotView;
  /** Per key with a counted LOCK, the earliest time its counted LOCKs claim (timeout.ts nextOpening, version 7 on). */
  readonly lockClaims: ReadonlyMap<string, number>;
  /** Per key with a valid REVEAL, the earliest time its REVEALs claim (timeout.ts nextOpening, version 6 and older). */
  readonly revealClaims: ReadonlyMap<string, number>;
  /** When every awaited slot had a FINAL: the clock median (timeout.ts) over the ballot's keys of when each finished its FINALs. */
  readonly finalsAt: number;
  /** When every key of the ballot had a LOCK: the clock median of their LOCK claims. */
  readonly locksAt: number;
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

/** The smallest of many numbers (no argument spread: a cheater's list may be longer than the stack allows). */
function least(xs: Iterable<number>): number {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m;
}

/** Appends to a list in a map of lists (in place: a phase may hold thousands of commits). */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

const bySeq = (a: { seq: number; id: string }, b: { seq: number; id: string }) => a.seq - b.seq || compareText(a.id, b.id);

/** Escrow holders of a commit: the other keys of the ballot, in key order (holder i at index i−1). */
export function escrowHolders(ballotKeys: readonly string[], owner: string): string[] {
  return ballotKeys.filter((k) => k !== owner);
}

/**
 * One value a REVEAL must release: its author's secret of an own commit, its share of another's,
 * or (a version 6 game, a commit its own LOCK did not name) that share or, when it does not
 * check, a complaint in its place.
 */
export interface RevealDue<C> {
  readonly commit: C;
  readonly release: 'secret' | 'share' | 'share-or-complaint';
}

/**
 * What a REVEAL by `author` must release, given the commits the LOCKs it names name (`named`, a
 * commit may come twice): in the order of the commits' ids, the author's secret of each own commit
 * and its share of each other commit whose escrow holds it, less those `own.complained` (its own
 * named LOCK validly complained about). In a version 6 game (`revealComplaints`) a share of a
 * commit its own LOCK did not name (`own.names`) may be replaced by a complaint (README.md "The
 * sealed ballot"). From version 4 on a REVEAL lists exactly these, by position (README.md "a
 * REVEAL's secrets and shares without commit ids"), so the writer (client.ts revealDue) and the
 * tally both read this one list, or they would pair values with other commits.
 */
export function revealOwes<C extends { readonly id: string; readonly from: string }>(
  author: string,
  named: Iterable<C>,
  ballotKeys: readonly string[],
  own: { readonly names: (c: C) => boolean; readonly complained: (c: C) => boolean },
  revealComplaints: boolean,
): RevealDue<C>[] {
  const byId = new Map<string, C>();
  for (const c of named) byId.set(c.id, c);
  const out: RevealDue<C>[] = [];
  for (const c of [...byId.values()].sort((a, b) => compareText(a.id, b.id))) {
    if (c.from === author) out.push({ commit: c, release: 'secret' });
    else {
      const holders = escrowHolders(ballotKeys, c.from);
      if (escrowOn(holders.length) && holders.includes(author) && !own.complained(c))
        out.push({ commit: c, release: revealComplaints && !own.names(c) ? 'share-or-complaint' : 'share' });
    }
  }
  return out;
}

/**
 * The LOCK a REVEAL names for each key, read from either form: version 4's list of LOCK ids (the
 * key of each is its LOCK's signer: two LOCKs of one key make the REVEAL invalid) or version 3's
 * key -> id (each LOCK must be its key's). A LOCK this phone does not hold makes it pending.
 */
function revealNames(
  p: RevealPayload,
  lockById: ReadonlyMap<string, Message<LockPayload>>,
  statusOf: (lockId: string) => string | null,
): { named: Map<string, string>; reason: string | null } {
  const named = new Map<string, string>();
  const pairs: [string | null, string][] = Array.isArray(p.locks)
    ? (p.locks as readonly string[]).map((id) => [null, id])
    : Object.entries(p.locks as Readonly<Record<string, string>>);
  for (const [k, id] of pairs) {
    const l = lockById.get(id);
    if (l === undefined) return { named, reason: 'pending' };
    const key = l.payload.from;
    if (k !== null && key !== k) return { named, reason: 'reveal-names-lock-of-another-key' };
    if (k === null && named.has(key)) return { named, reason: 'reveal-names-two-locks-of-one-key' };
    const status = statusOf(id);
    if (status !== null) return { named, reason: status };
    named.set(key, id);
  }
  return { named, reason: null };
}

/**
 * A REVEAL's secrets or shares as asked for commit by commit: version 3 looks each up by commit
 * id; version 4's list is read in order (the caller asks in the order of the commits' ids), and
 * `left` says how many were never asked for.
 */
function textsOf(x: Readonly<Record<string, string>> | readonly string[]): { (commitId: string): string | undefined; left(): number } {
  if (Array.isArray(x)) {
    const list = x as readonly string[];
    let next = 0;
    return Object.assign(() => list[next++], { left: () => Math.max(0, list.length - next) });
  }
  const record = x as Readonly<Record<string, string>>;
  return Object.assign((id: string) => (Object.hasOwn(record, id) ? record[id] : undefined), { left: () => 0 });
}

const escrowKeys = new WeakMap<EscrowPayload, { derived: string; feldman: string }>();

/** The text naming a commit's escrow in its checks' keys, built once per escrow object (an opened entry's is the same at every re-reduce). */
function escrowKeyOf(escrow: EscrowPayload, derived: boolean): string {
  let have = escrowKeys.get(escrow);
  if (have === undefined) {
    const rest = `${escrow.e}|${escrow.c.join(',')}`;
    have = { derived: `derived|${rest}`, feldman: `feldman|${rest}` };
    escrowKeys.set(escrow, have);
  }
  return derived ? have.derived : have.feldman;
}

const scalars = new Map<string, bigint | null>();

/** scalarFromText, remembered by the text (a REVEAL's secrets and shares are read at every re-reduce of its phase). */
function scalarOf(text: string): bigint | null {
  const have = scalars.get(text);
  if (have !== undefined) return have;
  const fresh = scalarFromText(text);
  if (scalars.size >= 20_000) scalars.clear();
  scalars.set(text, fresh);
  return fresh;
}

export function tallyBallot(input: BallotInput): BallotResult {
  const work = input.work ?? { steps: 0 };
  work.steps += input.commits.length + input.finals.length + input.locks.length + input.reveals.length;
  const ignored: Ignored[] = [];
  const misconduct: Misconduct[] = [];
  const ballotKeys = new Set(input.ballotKeys);
  const required = new Set(input.required);
  const commits = new Map(input.commits.map((c) => [c.id, c]));
  const holdersOf = (c: BallotCommit) => escrowHolders(input.ballotKeys, c.from);
  // The escrow checks, remembered by everything they depend on where the caller keeps them.
  const remember: EscrowChecks = input.checks ?? ((_key, run) => run());
  // Each key names every input of its check: the scheme (derived or Feldman), E, the commitments.
  const escrowKey = (c: BallotCommit) => escrowKeyOf(c.escrow, c.derived);
  const secretChecks = (c: BallotCommit, s: bigint) => remember(`secret|${escrowKey(c)}|${s}`, () => checkCommitSecret(c.escrow, c.derived, s));
  const shareChecks = (c: BallotCommit, index: number, share: bigint) =>
    remember(`share|${escrowKey(c)}|${index}|${share}`, () => checkHolderShare(c.escrow, c.derived, index, share));

  // FINALs: a holder's word on one of its own commits of the slot.
  const finals = new Map<string, BallotFinal>();
  const finalsBySlot = new Map<string, BallotFinal[]>();
  // A FINAL naming no commit of the phase this phone holds is pending (the commit may not have
  // arrived: admission keeps what admitted entries name, and anti-entropy fetches it by id): not
  // valid, not refused. Decided from the phase's own entries, so a remembered phase stays right.
  const pendingFinals = new Set<string>();
  for (const f of input.finals) {
    const c = commits.get(f.commit);
    if (!required.has(f.slot)) ignored.push({ id: f.id, reason: 'final-for-slot-not-awaited' });
    else if (c === undefined) pendingFinals.add(f.id);
    else if (c.slot !== f.slot || c.from !== f.from) ignored.push({ id: f.id, reason: 'final-names-another-commit' });
    else {
      finals.set(f.id, f);
      push(finalsBySlot, f.slot, f);
    }
  }

  const locksBy = new Map<string, Message<LockPayload>[]>();
  for (const l of input.locks) {
    if (!ballotKeys.has(l.payload.from)) ignored.push({ id: l.id, reason: 'lock-by-non-player' });
    else push(locksBy, l.payload.from, l);
  }
  const revealsBy = new Map<string, Message<RevealPayload>[]>();
  for (const r of input.reveals) {
    if (!ballotKeys.has(r.payload.from)) ignored.push({ id: r.id, reason: 'reveal-by-non-player' });
    else push(revealsBy, r.payload.from, r);
  }
  const lockById = new Map(input.locks.filter((l) => ballotKeys.has(l.payload.from)).map((l) => [l.id, l]));

  // Equivocators: two FINALs for one slot, two LOCKs or two REVEALs. Honest phones never are.
  const equivocators = new Set<string>();
  for (const [slot, fs] of finalsBySlot) {
    if (fs.length < 2) continue;
    equivocators.add(fs[0]!.from);
    misconduct.push({ author: fs[0]!.from, phase: input.phase, slot, kind: 'equivocation', ids: fs.map((f) => f.id).sort(compareText) });
  }
  for (const [key, ls] of locksBy) {
    if (ls.length < 2) continue;
    equivocators.add(key);
    misconduct.push({ author: key, phase: input.phase, kind: 'equivocation', ids: ls.map((l) => l.id).sort(compareText) });
  }
  for (const [key, rs] of revealsBy) {
    if (rs.length < 2) continue;
    equivocators.add(key);
    misconduct.push({ author: key, phase: input.phase, kind: 'equivocation', ids: rs.map((r) => r.id).sort(compareText) });
  }

  const awaited = input.required.filter((s) => !input.timedOut.has(s));
  const keys = [...new Set(awaited.map(input.holderOf))].filter((k) => ballotKeys.has(k)).sort(compareText);
  const inBallot = new Set(keys);

  // The commits a LOCK names: through its FINALs, and directly (timed-out slots).
  const namedBy = (l: LockPayload): BallotCommit[] => {
    const out: BallotCommit[] = [];
    for (const id of Object.values(l.finals)) {
      const f = finals.get(id);
      if (f !== undefined) out.push(commits.get(f.commit)!);
    }
    for (const id of Object.values(l.heads)) {
      const c = commits.get(id);
      if (c !== undefined) out.push(c);
    }
    return out;
  };

  const finalIdSet = new Set(input.finals.map((f) => f.id));
  const lockStatus = new Map<string, 'valid' | 'pending' | string>();
  for (const l of lockById.values()) {
    const p = l.payload;
    work.steps += 1 + Object.keys(p.finals).length + Object.keys(p.heads).length + p.complaints.length;
    let status: string = 'valid';
    for (const [slot, id] of Object.entries(p.finals)) {
      const f = finals.get(id);
      if (f === undefined) status = finalIdSet.has(id) && !pendingFinals.has(id) ? 'lock-names-invalid-final' : status === 'valid' ? 'pending' : status;
      else if (f.slot !== slot) status = 'lock-names-final-of-another-slot';
    }
    for (const [slot, id] of Object.entries(p.heads)) {
      const c = commits.get(id);
      if (c === undefined) status = status === 'valid' ? 'pending' : status;
      else if (c.slot !== slot) status = 'lock-names-commit-of-another-slot';
    }
    if (awaited.some((s) => p.finals[s] === undefined)) status = status === 'valid' ? 'lock-misses-a-final' : status;
    const named = new Set(namedBy(p).map((c) => c.id));
    for (const k of p.complaints) {
      const c = commits.get(k.commit);
      if (c === undefined || !named.has(c.id)) status = 'lock-complains-about-commit-not-named';
      else if (!escrowOn(holdersOf(c).length) || !holdersOf(c).includes(p.from)) status = 'lock-complaint-by-non-holder';
    }
    lockStatus.set(l.id, status);
    if (status !== 'valid' && status !== 'pending') ignored.push({ id: l.id, reason: status });
  }
  const lockValid = (id: string | undefined) => id !== undefined && lockStatus.get(id) === 'valid';

  // A complaint by `from` about its share of c: its proof pins K = x_i·E, and the share read with K fails.
  const complaintChecks = (from: string, k: Complaint, c: BallotCommit): boolean => {
    const holders = holdersOf(c);
    const index = holders.indexOf(from) + 1;
    const key = input.escrowKeys.get(from);
    return key != null && index > 0 && complaintValidFor(key, c.escrow, c.derived, c.from, index, k, c.id);
  };
  const complaintOk = (lock: LockPayload, c: BallotCommit): boolean => {
    const k = lock.complaints.find((x) => x.commit === c.id);
    return k !== undefined && complaintChecks(lock.from, k, c);
  };
  const revealComplaints = input.revealComplaints === true;

  // REVEALs, first by shape: from a key of the ballot, naming a valid LOCK of every such key, the
  // author's secret of each of its own named commits and a share of every other named commit it holds one of.
  interface Checked {
    readonly r: Message<RevealPayload>;
    /** commit id -> share, for every share the REVEAL must carry (and that a complaint does not excuse). */
    readonly owed: Map<BallotCommit, bigint>;
    readonly secrets: Map<string, bigint>;
    /** Commits its valid complaints (version 6, in the place of a share) prove spoiled. */
    readonly spoiled: BallotCommit[];
  }
  const candidates: Checked[] = [];
  for (const [author, rs] of revealsBy) {
    for (const r of rs) {
      const p = r.payload;
      const listed = Array.isArray(p.locks);
      work.steps += 1 + revealLockIds(p).length;
      let reason: string | null = null;
      if (!inBallot.has(author)) reason = 'reveal-by-key-without-awaited-slot';
      // Version 3 keys its LOCKs by author: a missing key shows before any LOCK is read.
      if (!listed) for (const k of keys) if (reason === null && (p.locks as Readonly<Record<string, string>>)[k] === undefined) reason = 'reveal-misses-a-lock';
      const { named: lockOf, reason: naming } = revealNames(p, lockById, (id) =>
        lockStatus.get(id) === 'pending' ? 'pending' : lockValid(id) ? null : 'reveal-names-invalid-lock',
      );
      reason ??= naming;
      // Version 4 lists LOCK ids: which keys they cover shows once every one is read.
      if (listed) for (const k of keys) if (reason === null && !lockOf.has(k)) reason = 'reveal-misses-a-lock';
      const owed = new Map<BallotCommit, bigint>();
      const secrets = new Map<string, bigint>();
      const spoiled: BallotCommit[] = [];
      const complaints = p.complaints ?? [];
      // Before version 6 a REVEAL's complaint excuses nothing: the old rule (a share owed is a share).
      if (reason === null && !revealComplaints && complaints.length > 0) reason = 'reveal-complaint-before-version-6';
      if (reason === null) {
        const own = lockById.get(lockOf.get(author) ?? '')?.payload;
        const ownNamed = new Set(own === undefined ? [] : namedBy(own).map((c) => c.id));
        let complaintsUsed = 0;
        const named = [...lockOf.values()].flatMap((id) => namedBy(lockById.get(id)!.payload));
        // Version 4 lists secrets and shares in the order of their commits' ids; 3 keys them by id.
        const secretAt = textsOf(p.secrets);
        const shareAt = textsOf(p.shares);
        const due = revealOwes(
          author,
          named,
          input.ballotKeys,
          { names: (c) => ownNamed.has(c.id), complained: (c) => own !== undefined && complaintOk(own, c) },
          // An equivocator (never an honest phone) keeps the old rule: with two LOCKs, one not naming
          // its dealer's commit, it could otherwise void that commit or not after reading.
          revealComplaints && !equivocators.has(author),
        );
        for (const { commit: c, release } of due) {
          if (release === 'secret') {
            const text = secretAt(c.id);
            const s = text === undefined ? null : scalarOf(text);
            if (s === null || !secretChecks(c, s)) reason = 'reveal-misses-a-secret';
            else secrets.set(c.id, s);
          } else {
            const k = release === 'share-or-complaint' ? complaints.find((x) => x.commit === c.id) : undefined;
            if (k !== undefined) {
              complaintsUsed += 1;
              if (complaintChecks(author, k, c)) spoiled.push(c);
              else reason = 'reveal-complaint-does-not-check';
              if (reason !== null) break;
              continue;
            }
            const text = shareAt(c.id);
            const v = text === undefined ? null : scalarOf(text);
            if (v === null) reason = 'reveal-misses-a-share';
            else owed.set(c, v);
          }
          if (reason !== null) break;
        }
        // A list says nothing more than what is owed: one form per REVEAL.
        if (reason === null && secretAt.left() > 0) reason = 'reveal-has-extra-secrets';
        if (reason === null && shareAt.left() > 0) reason = 'reveal-has-extra-shares';
        if (reason === null && complaintsUsed < complaints.length) reason = 'reveal-complains-about-commit-not-owed';
      }
      if (reason === null) candidates.push({ r, owed, secrets, spoiled });
      else if (reason !== 'pending') ignored.push({ id: r.id, reason });
    }
  }

  // A share must check against the commitments unless its commit is opened by its owner's own
  // valid REVEAL anyway. The valid REVEALs are the largest set for which that holds (a greatest
  // fixed point, so shares are checked only when someone's orders depend on them).
  let valid = candidates;
  for (;;) {
    work.steps += valid.length;
    const ownerOpened = new Set<string>();
    for (const v of valid) for (const id of v.secrets.keys()) ownerOpened.add(id);
    const next = valid.filter((v) =>
      [...v.owed].every(([c, share]) => ownerOpened.has(c.id) || shareChecks(c, holdersOf(c).indexOf(v.r.payload.from) + 1, share)),
    );
    if (next.length === valid.length) break;
    for (const v of valid) if (!next.includes(v)) ignored.push({ id: v.r.id, reason: 'reveal-share-does-not-check' });
    valid = next;
  }
  const validBy = new Map<string, Checked[]>();
  for (const v of valid) push(validBy, v.r.payload.from, v);
  // Who names each LOCK in a valid REVEAL (an index, so a key's many LOCKs cost one pass).
  const namersOf = new Map<string, string[]>();
  for (const v of valid) {
    work.steps += 1;
    for (const id of revealLockIds(v.r.payload)) push(namersOf, id, v.r.payload.from);
  }
  const secretOf = new Map<string, bigint>();
  for (const v of valid) for (const [id, s] of v.secrets) secretOf.set(id, s);
  // Commits a valid REVEAL's complaint proves spoiled (version 6): void, as a counted LOCK's complaint makes them.
  const spoiledByReveal = new Set<string>();
  for (const v of valid) for (const c of v.spoiled) spoiledByReveal.add(c.id);

  // Counted LOCKs: a key of the ballot with exactly one LOCK stands by it (every valid REVEAL
  // needed it, so it came before anything was readable); otherwise only the LOCKs that a valid
  // REVEAL of another key, not an equivocator, names.
  const counted = new Map<string, LockPayload[]>();
  for (const [key, ls] of locksBy) {
    const good = ls.filter((l) => lockValid(l.id));
    let mine: Message<LockPayload>[];
    if (inBallot.has(key) && ls.length === 1) mine = good;
    else mine = good.filter((l) => (namersOf.get(l.id) ?? []).some((from) => from !== key && !equivocators.has(from)));
    work.steps += ls.length;
    if (mine.length > 0)
      counted.set(
        key,
        mine.map((l) => l.payload),
      );
  }
  const allCounted = [...counted.values()].flat();

  const outcomes = new Map<string, SlotOutcome>();
  for (const slot of input.required) {
    const holder = input.holderOf(slot);
    const others = [...counted.entries()].filter(([k]) => k !== holder).flatMap(([, ls]) => ls);
    const namers = others.length > 0 ? others : (counted.get(holder) ?? []);
    const namedFinals = [...new Set(namers.map((l) => l.finals[slot]).filter((id): id is string => id !== undefined && finals.has(id)))];
    let commit: BallotCommit | undefined;
    if (namedFinals.length > 1) {
      outcomes.set(slot, { kind: 'void', reason: 'equivocation' });
      continue;
    }
    if (namedFinals.length === 1) commit = commits.get(finals.get(namedFinals[0]!)!.commit);
    else if (!input.timedOut.has(slot)) {
      outcomes.set(slot, { kind: 'pending' });
      continue;
    } else {
      const heads = [...new Set(namers.map((l) => l.heads[slot]).filter((id): id is string => id !== undefined && commits.get(id)?.slot === slot))].map((id) =>
        commits.get(id)!,
      );
      heads.sort((a, b) => b.seq - a.seq || compareText(a.id, b.id));
      if (heads.length > 1 && heads[0]!.seq === heads[1]!.seq) {
        outcomes.set(slot, { kind: 'void', reason: 'equivocation' });
        continue;
      }
      commit = heads[0];
      if (commit === undefined) {
        outcomes.set(slot, { kind: 'void', reason: 'no-commit' });
        continue;
      }
    }
    const c = commit!;
    if (spoiledByReveal.has(c.id) || allCounted.some((l) => complaintOk(l, c))) {
      outcomes.set(slot, { kind: 'void', reason: 'escrow-bad-share', commit: c.id });
      misconduct.push({ author: c.from, phase: input.phase, slot, kind: 'escrow-bad-share', ids: [c.id] });
      continue;
    }
    let secret = secretOf.get(c.id);
    const holders = holdersOf(c);
    if (secret === undefined && escrowOn(holders.length)) {
      const shares: bigint[] = [];
      for (const h of holders) {
        const share = (validBy.get(h) ?? []).map((v) => v.owed.get(c)).find((x) => x !== undefined);
        if (share === undefined) break;
        shares.push(share);
      }
      if (shares.length === holders.length) {
        const s = reconstructFor(shares, c.derived);
        if (secretChecks(c, s)) secret = s;
      }
    }
    if (secret !== undefined) {
      const s = secret;
      const plain = memoUnseal(c.id, s, () => openSealed(c.sealed, s));
      if (plain === null) {
        outcomes.set(slot, { kind: 'void', reason: 'bad-secret', commit: c.id });
        misconduct.push({ author: c.from, phase: input.phase, slot, kind: 'unopened-commit', ids: [c.id] });
      } else outcomes.set(slot, { kind: 'opened', commit: c.id, plain });
      continue;
    }
    // Not opened: wait while someone who can still open it has not revealed; otherwise it stays shut.
    const hasShare = (h: string) => (validBy.get(h) ?? []).some((v) => v.owed.has(c));
    const canStill = inBallot.has(c.from) || (escrowOn(holders.length) && holders.every((h) => hasShare(h) || (inBallot.has(h) && !validBy.has(h))));
    outcomes.set(slot, canStill ? { kind: 'pending', commit: c.id } : { kind: 'void', reason: 'unopened', commit: c.id });
  }

  const closed = keys.every((k) => counted.has(k)) && [...outcomes.values()].every((o) => o.kind !== 'pending');

  // What is still awaited, for the phones' duties and for the players who may vote laggards out.
  const commitsBySlot = new Map<string, BallotCommit[]>();
  for (const c of input.commits) push(commitsBySlot, c.slot, c);
  const heads: Record<string, string> = {};
  for (const [slot, cs] of commitsBySlot) heads[slot] = cs.reduce((a, b) => (bySeq(a, b) >= 0 ? a : b)).id;
  const finalIds: Record<string, string[]> = {};
  for (const [slot, fs] of finalsBySlot) finalIds[slot] = fs.map((f) => f.id).sort(compareText);
  const lockIds: Record<string, string[]> = {};
  for (const [key, ls] of locksBy) {
    const good = ls
      .filter((l) => lockValid(l.id))
      .map((l) => l.id)
      .sort(compareText);
    if (good.length > 0) lockIds[key] = good;
  }
  const revealIds: Record<string, string[]> = {};
  for (const [key, vs] of validBy) revealIds[key] = vs.map((v) => v.r.id).sort(compareText);
  // For a key with two LOCKs, the one the valid REVEALs seen name (what an honest REVEAL names too).
  const lockNamed: Record<string, string> = {};
  for (const [key, ids] of Object.entries(lockIds)) {
    if (ids.length < 2) continue;
    const named = ids.filter((id) => namersOf.has(id));
    if (named.length > 0) lockNamed[key] = named.sort(compareText)[0]!;
  }
  const noCommit = awaited.filter((s) => !commitsBySlot.has(s));
  const noFinal = awaited.filter((s) => commitsBySlot.has(s) && !finalsBySlot.has(s));
  const noLock = keys.filter((k) => lockIds[k] === undefined);
  const needed = new Set<string>();
  for (const o of outcomes.values()) {
    if (o.kind !== 'pending' || o.commit === undefined) continue;
    const c = commits.get(o.commit)!;
    if (inBallot.has(c.from) && !validBy.has(c.from)) needed.add(c.from);
    for (const h of holdersOf(c)) if (inBallot.has(h) && !validBy.has(h)) needed.add(h);
  }
  const stage: BallotView['stage'] = noCommit.length > 0 ? 'orders' : noFinal.length > 0 ? 'final' : noLock.length > 0 ? 'lock' : 'reveal';
  const waiting = stage === 'orders' ? noCommit.map(input.holderOf) : stage === 'final' ? noFinal.map(input.holderOf) : stage === 'lock' ? noLock : [...needed];
  const lockClaims = new Map<string, number>();
  for (const [key, ls] of counted) lockClaims.set(key, least(ls.map((l) => l.time)));
  const revealClaims = new Map<string, number>();
  for (const [key, vs] of validBy) revealClaims.set(key, least(vs.map((v) => v.r.payload.time)));
  const outcomeView: Record<string, string> = {};
  for (const [slot, o] of outcomes) outcomeView[slot] = o.kind === 'void' ? `void:${o.reason}` : o.kind;
  const commitIds: Record<string, string[]> = {};
  for (const [slot, cs] of commitsBySlot) commitIds[slot] = [...cs].sort(bySeq).map((c) => c.id);
  const view: BallotView = {
    stage: closed ? 'closed' : stage,
    keys,
    heads,
    commits: commitIds,
    sealed: noCommit.length === 0,
    finals: finalIds,
    locks: lockIds,
    lockNamed,
    reveals: revealIds,
    waiting: [...new Set(waiting)].sort(compareText),
    outcomes: outcomeView,
    equivocators: [...equivocators].sort(compareText),
  };
  const gameVersion = input.gameVersion ?? PROTOCOL_VERSION;
  const median = (xs: number[]) => (xs.length === 0 || xs.some((x) => !Number.isFinite(x)) ? Infinity : clockMedian(xs, gameVersion)!);
  const finalAt = (slot: string) => least((finalsBySlot.get(slot) ?? []).map((f) => f.time));
  const finalsAt = median(keys.map((k) => -least(awaited.filter((s) => input.holderOf(s) === k).map((s) => -finalAt(s)))));
  const locksAt = median(keys.map((k) => least((locksBy.get(k) ?? []).filter((l) => lockValid(l.id)).map((l) => l.payload.time))));
  return { outcomes, closed, view, lockClaims, revealClaims, finalsAt, locksAt, ignored, misconduct };
}
