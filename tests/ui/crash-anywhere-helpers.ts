// The pieces of the crash-anywhere test (crash-anywhere.test.ts): a store that numbers a phone's
// writes and kills the page at one of them, phones opened as the app opens a game (replica, doc
// persisted, runner; minus the network), a network of docs that cuts a killed phone off, and a
// copy of a device's databases so every replay starts from the same snapshot.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { IDBPDatabase } from 'idb';
import nacl from 'tweetnacl';
import * as Y from 'yjs';
import { createGameDoc, GameReplica } from '../../src/net';
import { parseEntry } from '../../src/protocol';
import { entryStorage, openPactoStore, persistDoc, type PactoStore, type PersistedDoc, type ReservationPatch, type ReservationRecord } from '../../src/store';
import { openDevice, type Device } from '../../src/ui/game/device';
import { GameRunner } from '../../src/ui/game/runner';
import type { Phone } from './phones';

const WIRE = { name: 'wire', origin: 'wire' };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const never = <T>() => new Promise<T>(() => undefined);

/** Every PactoStore method that writes to the device's databases (src/store/open.ts). */
export const WRITES: ReadonlySet<string> = new Set<keyof PactoStore>([
  'putGame',
  'updateGame',
  'deleteGame',
  'modifyReservation',
  'appendUpdates',
  'compact',
  'deleteUpdates',
  'replaceUpdates',
  'saveDraftOrders',
  'addSeal',
  'deleteDraft',
  'updateSettings',
  'ensureIdentityKeys',
  'putEntries',
  'putFailed',
  'outboxAck',
  'beginRelays',
  'putRelayCursor',
]);

/** Kill the page at write `k` of the phase: before it lands (it commits nothing) or just after. */
export interface CrashPlan {
  readonly k: number;
  readonly when: 'before' | 'after';
}

export interface Written {
  readonly index: number;
  readonly label: string;
}

export interface CrashStore {
  readonly store: PactoStore;
  /** Writes are numbered from now on (the phase starts). */
  arm(): void;
  writes(): readonly Written[];
  killed(): boolean;
  killedAt(): Written | undefined;
  /** Resolves when the page is killed. */
  readonly died: Promise<void>;
  /** How entries are named in the labels (set once the replica is open: compact entries need its context). */
  describeEntry: (bytes: Uint8Array) => string;
}

/**
 * `inner` with every write numbered once armed; with a plan, the page dies at write `plan.k`
 * (`onKill` cuts it off): before, that write never lands; after, it lands and its caller never
 * hears back. From then on no call of the store (write or read) ever answers, and a reservation
 * whose transaction runs after the kill writes nothing: a killed page does nothing more.
 */
export function crashStore(inner: PactoStore, plan: CrashPlan | null, onKill: () => void): CrashStore {
  let armed = false;
  let dead = false;
  let at: Written | undefined;
  const written: Written[] = [];
  let died!: () => void;
  const diedP = new Promise<void>((r) => (died = r));
  const kill = (w: Written) => {
    if (dead) return;
    dead = true;
    at = w;
    onKill();
    died();
  };
  const note = (label: string): Written => {
    const w = { index: written.length, label };
    written.push(w);
    return w;
  };
  const self: CrashStore = {
    store: undefined as unknown as PactoStore,
    arm: () => (armed = true),
    writes: () => written,
    killed: () => dead,
    killedAt: () => at,
    died: diedP,
    describeEntry: () => 'entry',
  };
  const labelOf = (key: string, args: unknown[]): string => {
    switch (key) {
      case 'putEntries': {
        const put = args[1] as readonly { bytes: Uint8Array }[];
        const remove = args[2] as readonly string[];
        return `putEntries [${put.map((e) => self.describeEntry(e.bytes)).join(' ')}]${remove.length > 0 ? ` -${remove.length}` : ''}${args[3] === false ? '' : ' strict'}`;
      }
      case 'addSeal': {
        const k = args[0] as { phase: string; power: string };
        const seal = args[1] as { hash: string };
        return `addSeal ${k.phase}|${k.power} ${seal.hash.startsWith('escrow:') ? 'secret kept ahead' : `commit${args[3] === undefined ? '' : ' (replaces the kept-ahead one)'}`}`;
      }
      case 'updateGame':
        return `updateGame {${Object.keys(args[1] as object).join(',')}}`;
      case 'appendUpdates': {
        const own = (args[2] as readonly boolean[] | undefined) ?? [];
        return `appendUpdates ${(args[1] as unknown[]).length} update(s), ${own.filter(Boolean).length} own`;
      }
      default:
        return key;
    }
  };
  const reservationLabel = (old: ReservationRecord, patch: ReservationPatch): string => {
    const names = patch.once.filter((n) => !old.once.includes(n));
    const parts = [...(names.length > 0 ? [`name ${names.join(',')}`] : []), ...(patch.nextSeq !== old.nextSeq ? [`seq block to ${patch.nextSeq}`] : [])];
    return `modifyReservation ${parts.join(' + ') || '(rewrite)'}`;
  };
  (self as { store: PactoStore }).store = new Proxy(inner, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function' || typeof key !== 'string' || key === 'close') return v;
      const call = (args: unknown[]) => (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      return (...args: unknown[]): unknown => {
        if (dead) return never();
        if (key === 'modifyReservation') {
          // Numbered inside the transaction, where the patch is chosen: one writing nothing (a
          // read of the names) is no write.
          const change = args[1] as (old: ReservationRecord) => ReservationPatch | null;
          let mine: Written | undefined;
          const result = target.modifyReservation(args[0] as string, (old) => {
            if (dead) return null;
            const patch = change(old);
            if (patch === null || !armed) return patch;
            mine = note(reservationLabel(old, patch));
            return plan !== null && mine.index === plan.k && plan.when === 'before' ? null : patch;
          });
          return result.then((r) => {
            if (mine !== undefined && plan !== null && mine.index === plan.k) kill(mine);
            return dead ? never() : r;
          });
        }
        if (!armed || !WRITES.has(key)) return call(args);
        const w = note(labelOf(key, args));
        if (plan === null || w.index !== plan.k) return call(args);
        if (plan.when === 'before') {
          kill(w);
          return never();
        }
        return call(args).then(() => {
          kill(w);
          return never();
        });
      };
    },
  });
  return self;
}

export interface TestPhone extends Phone {
  readonly persisted: PersistedDoc;
  /** Closes everything of the page (its writes are not waited for). */
  close(): void;
}

/**
 * Opens a game on a device as the app does (src/ui/game/core.ts: a replica on the store's entries,
 * the doc persisted with this phone's own updates in the relay outbox, the runner), minus the
 * network; on `store` (a crashStore) if given. Peers' entries are written at once (no
 * peerWrites), so every write has a moment of its own to be killed at.
 */
export async function openOn(d: Device, gameId: string, now: () => number, store: PactoStore | CrashStore = d.store): Promise<TestPhone> {
  const crash = 'arm' in store ? store : undefined;
  const s = crash?.store ?? (store as PactoStore);
  const doc = createGameDoc();
  const replica = await GameReplica.open({ gameId, doc, self: d.identity.id, storage: entryStorage(s, gameId) });
  if (crash !== undefined) crash.describeEntry = (bytes) => describe(bytes, replica, d.identity.id);
  const persisted = persistDoc(s, gameId, doc, {
    load: (updates, origin) => replica.loadStored(updates, origin),
    own: (origin) => replica.isOwnOrigin(origin),
  });
  await persisted.ready;
  const runner = await GameRunner.open({ store: s, identity: d.identity, gameId, log: replica, now, random: nacl.randomBytes });
  return {
    device: { ...d, store: s },
    doc,
    replica,
    runner,
    persisted,
    close() {
      runner.close();
      replica.destroy();
      void persisted.destroy().catch(() => undefined);
      doc.destroy();
    },
  };
}

/** An entry's payload as `replica` reads it (compact entries too), or null. */
export function payloadIn(bytes: Uint8Array, replica: GameReplica): Record<string, unknown> | null {
  const o = parseEntry(bytes, replica.admission.wireContext());
  return o.ok ? (o.entry.payload as unknown as Record<string, unknown>) : null;
}

function describe(bytes: Uint8Array, replica: GameReplica, me: string): string {
  const p = payloadIn(bytes, replica);
  if (p === null) return '?';
  const phase = typeof p.phase === 'string' ? `:${p.phase.replace(/^(\d+)-(\w+)-(\w+)$/, '$1$2$3')}` : '';
  return `${String(p.type)}${phase}${p.from === me ? '(own)' : ''}`;
}

/** Docs wired like connected peers; a killed phone neither sends nor receives from then on. */
export class Net {
  private readonly phones: TestPhone[] = [];
  private readonly dead = new Set<TestPhone>();
  private readonly deaths = new Map<TestPhone, () => void>();
  private readonly died = new Map<TestPhone, Promise<void>>();

  add(p: TestPhone): void {
    this.died.set(p, new Promise<void>((r) => this.deaths.set(p, r)));
    p.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin === 'wire' || this.dead.has(p)) return;
      for (const b of this.phones) if (b !== p && !this.dead.has(b)) b.replica.receive(u, WIRE);
    });
    // On connecting, each side gets the other's doc and, as anti-entropy does (src/net), every
    // admitted entry it lacks: a reopened phone holds entries its doc may not (its own, whose doc
    // update was never written), which its carrier would put in the doc only seconds later.
    for (const b of this.alive()) {
      b.replica.receive(Y.encodeStateAsUpdate(p.doc), WIRE);
      p.replica.receive(Y.encodeStateAsUpdate(b.doc), WIRE);
      b.replica.receiveEntries(p.replica.entries(), WIRE);
      p.replica.receiveEntries(b.replica.entries(), WIRE);
    }
    this.phones.push(p);
  }

  /** The page is killed: cut off, its runner closed. */
  kill(p: TestPhone): void {
    this.dead.add(p);
    p.runner.close();
    this.deaths.get(p)?.();
  }

  alive(): TestPhone[] {
    return this.phones.filter((p) => !this.dead.has(p));
  }

  /** Until no phone alive has anything left to do (its duties, its writes), three looks in a row. */
  async settle(): Promise<void> {
    let last = '';
    for (let quiet = 0, i = 0; quiet < 3 && i < 400; i++) {
      await sleep(1);
      const alive = this.alive();
      await Promise.all(
        alive.map((p) =>
          Promise.race([
            p.runner
              .idle()
              .then(() => p.replica.flush())
              .then(() => p.persisted.flush())
              .catch(() => undefined),
            this.died.get(p),
          ]),
        ),
      );
      const now = `${this.dead.size}|${this.alive()
        .map((p) => p.replica.entries().length)
        .join(',')}`;
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
  }

  close(): void {
    for (const p of this.phones) p.close();
  }
}

/** A copy of a device's databases (the game's and its reservations) in a new fake IndexedDB, opened as a device. */
export async function cloneDevice(d: Device, gameId: string, clock: number): Promise<Device> {
  const store = await openPactoStore(`pacto-copy-${Math.random()}`, new IDBFactory());
  const from = d.store.db as unknown as IDBPDatabase;
  const to = store.db as unknown as IDBPDatabase;
  for (const name of Array.from(from.objectStoreNames)) {
    const r = from.transaction(name);
    const [keys, values] = await Promise.all([r.store.getAllKeys(), r.store.getAll(), r.done]);
    const w = to.transaction(name, 'readwrite');
    const inline = w.store.keyPath !== null;
    await Promise.all([...values.map((v, i) => (inline ? w.store.put(v) : w.store.put(v, keys[i]))), w.done]);
  }
  const held: { r?: ReservationRecord } = {};
  await d.store.modifyReservation(gameId, (old) => {
    held.r = old;
    return null;
  });
  const r = held.r;
  if (r !== undefined) await store.modifyReservation(gameId, () => ({ nextSeq: r.nextSeq, once: r.once, ...(r.kept === undefined ? {} : { kept: r.kept }) }));
  return openDevice(store, nacl.randomBytes, clock);
}

/** The once-only names the device reserved in the game (the reservations, as stored). */
export async function reservedNames(store: PactoStore, gameId: string): Promise<readonly string[]> {
  const held: { once: readonly string[] } = { once: [] };
  await store.modifyReservation(gameId, (old) => {
    held.once = old.once;
    return null;
  });
  return held.once;
}

/** The entries signed by `key` that any of `phones` holds, by id. */
export function entriesBy(phones: readonly Phone[], key: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const p of phones)
    for (const bytes of p.replica.entries()) {
      const payload = payloadIn(bytes, p.replica);
      const id = p.replica.admission.idOfBytes(bytes);
      if (payload !== null && payload.from === key && id !== undefined) out.set(id, payload);
    }
  return out;
}

/** The once-only name of an entry (src/ui/game/duties.ts dutyKey), or null if it is not once-only. */
export function onceName(p: Record<string, unknown>): string | null {
  switch (p.type) {
    case 'start':
      return 'start';
    case 'lot-commit':
      return 'lot-commit';
    case 'ack':
      return p.phase === 'start' ? 'accept-start' : null;
    case 'final':
      return `final|${String(p.phase)}|${String(p.power)}`;
    case 'lock':
    case 'reveal':
      return `${p.type}|${String(p.phase)}`;
    default:
      return null;
  }
}

/** What is wrong with one author's entries: two once-only entries of one name, two entries with one number. */
export function onceProblems(entries: ReadonlyMap<string, Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const byName = new Map<string, string[]>();
  const bySeq = new Map<number, string[]>();
  for (const [id, p] of entries) {
    const name = onceName(p);
    if (name !== null) byName.set(name, [...(byName.get(name) ?? []), id]);
    if (typeof p.seq === 'number') bySeq.set(p.seq, [...(bySeq.get(p.seq) ?? []), id]);
  }
  for (const [name, ids] of byName) if (ids.length > 1) problems.push(`${ids.length} entries signed as ${name}`);
  for (const [seq, ids] of bySeq) if (ids.length > 1) problems.push(`${ids.length} entries signed with seq ${seq}`);
  return problems;
}
