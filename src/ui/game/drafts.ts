// The player's orders of the open phase on this phone, per power: the draft being written, the
// orders sealed last with their draw vote, and the secrets of the commits made (store 'drafts').
// Drafts survive reloads; a commit's secret is stored before the commit is published.
import { scalarFromBytes } from '../../protocol';
import type { Loc, Order, Power } from '../../rules';
import type { PactoStore } from '../../store';
import type { Lang } from '../i18n';

/**
 * The "1914" rules' refusal to seal while a unit has no order (seed 001: "se deben dar órdenes de
 * combate a todas las fuerzas"), worded for the player; `missing` lets a screen point at the units.
 */
export class MissingOrdersError extends Error {
  readonly power: Power;
  readonly missing: readonly Loc[];
  /** names: the units as the player's notation writes them ("A Par"). */
  constructor(power: Power, missing: readonly Loc[], names: readonly string[], lang: Lang) {
    const units = names.join(', ');
    super(
      lang === 'es'
        ? `Con las reglas «1914» hay que dar orden a todas las unidades antes de sellar. Sin orden: ${units}`
        : `Under the "1914" rules every unit needs an order before you can seal. Without an order: ${units}`,
    );
    this.name = 'MissingOrdersError';
    this.power = power;
    this.missing = missing;
  }
}

/** What a draft record's `orders` field holds for a game phase. */
interface StoredOrders {
  readonly draft: readonly Order[];
  readonly sealed: readonly Order[] | null;
  /** The draw vote sealed with them (movement phases). */
  readonly draw?: boolean;
}

function storedOrders(value: unknown): StoredOrders {
  if (Array.isArray(value)) return { draft: value as Order[], sealed: null };
  if (typeof value === 'object' && value !== null && Array.isArray((value as StoredOrders).draft)) {
    const v = value as StoredOrders;
    return { draft: v.draft, sealed: Array.isArray(v.sealed) ? v.sealed : null, ...(v.draw === true ? { draw: true } : {}) };
  }
  return { draft: [], sealed: null };
}

export interface DraftState {
  readonly drafts: Partial<Record<Power, readonly Order[]>>;
  readonly sealed: Partial<Record<Power, readonly Order[]>>;
  /** The draw vote sealed last per power in the open phase. */
  readonly drawVotes: Partial<Record<Power, boolean>>;
}

/** One commit this phone made: its secret (32 bytes), the nonce, the commit's id and (since kept) its signed bytes. */
export interface SealKept {
  readonly key: Uint8Array;
  readonly nonce: Uint8Array;
  readonly hash: string;
  readonly created: number;
  readonly entry?: Uint8Array;
}

/** A seal as stored (store SealRecord): a kept-ahead one has no nonce and a pendingHash name. */
type StoredSeal = Omit<SealKept, 'nonce'> & { readonly nonce?: Uint8Array };

/**
 * The name a seal's secret is kept under before its commit is signed (keepAhead): its escrow's tag
 * (protocol escrowTag), found again from the commit. Never a commit id (those are hex).
 */
export const pendingHash = (tag: string): string => `escrow:${tag}`;
const isPending = (hash: string): boolean => hash.startsWith('escrow:');

export class Drafts {
  private phase = '';
  private state: DraftState = { drafts: {}, sealed: {}, drawVotes: {} };
  /**
   * The seals of the phase `seals.phase` per power, as stored: read from the store once per phase
   * (load, or on a miss), then written through by this object, so the FINAL and REVEAL duties do
   * not read the store. A power absent here is read from the store when asked for.
   */
  private seals: { phase: string; byPower: Map<Power, readonly StoredSeal[]> } = { phase: '', byPower: new Map() };
  /** The latest commit sealed per power in the phase loaded, as the store held it then (load). */
  private loadedSeals: Partial<Record<Power, SealKept>> = {};

  constructor(
    private readonly store: PactoStore,
    private readonly gameId: string,
    /** Told about a write that nothing waits for (a seal's record when its secret was kept ahead). */
    private readonly onError?: (e: unknown) => void,
  ) {}

  get current(): DraftState {
    return this.state;
  }

  /** Loads the drafts of a phase (once per phase); true when they changed. */
  async load(phase: string, powers: readonly Power[]): Promise<boolean> {
    if (phase === this.phase) return false;
    const drafts: Partial<Record<Power, readonly Order[]>> = {};
    const sealed: Partial<Record<Power, readonly Order[]>> = {};
    const drawVotes: Partial<Record<Power, boolean>> = {};
    const seals = new Map<Power, readonly StoredSeal[]>();
    for (const power of powers) {
      const r = await this.store.getDraft({ gameId: this.gameId, phase, power });
      seals.set(power, r?.seals ?? []);
      // A record holding only a secret kept ahead (keepAhead) has no orders yet.
      if (r === undefined || r.orders === null || r.orders === undefined) continue;
      const s = storedOrders(r.orders);
      drafts[power] = s.draft;
      if (s.sealed !== null) sealed[power] = s.sealed;
      if (s.draw === true) drawVotes[power] = true;
    }
    this.phase = phase;
    this.state = { drafts, sealed, drawVotes };
    // A seal written meanwhile (keepAhead runs outside the runner's queue) is kept: the store's
    // copy read above may predate it.
    const before = this.seals.phase === phase ? this.seals.byPower : new Map<Power, readonly StoredSeal[]>();
    for (const [power, list] of before) {
      const read = seals.get(power) ?? [];
      seals.set(power, [...read, ...list.filter((s) => !read.some((r) => r.hash === s.hash))]);
    }
    this.seals = { phase, byPower: seals };
    const latest: Partial<Record<Power, SealKept>> = {};
    for (const [power, list] of seals) {
      const last = list
        .filter((x) => !isPending(x.hash))
        .sort((x, y) => x.created - y.created)
        .at(-1);
      if (last !== undefined) latest[power] = last as SealKept;
    }
    this.loadedSeals = latest;
    return true;
  }

  /**
   * The latest commit of each power sealed before this phase was loaded (a seal of an earlier
   * session or another tab), with its signed bytes if they were kept: one the log lacks was kept
   * and never sent (the phone died in between), and is sent again (runner.ts afterChange).
   */
  get loadedLatest(): Partial<Record<Power, SealKept>> {
    return this.loadedSeals;
  }

  /** Keeps the draft in memory at once (the screens show it), then stores it. */
  save(phase: string, power: Power, orders: readonly Order[], now: number): Promise<unknown> {
    const sealed = this.state.sealed[power] ?? null;
    this.state = { ...this.state, drafts: { ...this.state.drafts, [power]: orders } };
    const stored: StoredOrders = {
      draft: [...orders],
      sealed: sealed === null ? null : [...sealed],
      ...(this.state.drawVotes[power] === true ? { draw: true } : {}),
    };
    return this.store.saveDraftOrders({ gameId: this.gameId, phase, power }, stored, now);
  }

  /** The in-memory list of a power's seals in `phase` changed by `change` (only if it is held). */
  private remember(phase: string, power: Power, change: (old: readonly StoredSeal[]) => readonly StoredSeal[]): void {
    if (this.seals.phase !== phase) this.seals = { phase, byPower: new Map() };
    const old = this.seals.byPower.get(power);
    if (old !== undefined) this.seals.byPower.set(power, change(old));
  }

  /**
   * Keeps the secret of a seal to come (32 bytes) on disk, under its escrow's tag, before that seal
   * is made (the work done ahead, ahead.ts): the seal then has its secret on disk already and does
   * not wait for a write before its commit goes out. One strict write; resolves once on disk.
   */
  async keepAhead(phase: string, power: Power, key: Uint8Array, tag: string, created: number): Promise<void> {
    const seal: StoredSeal = { key, hash: pendingHash(tag), created };
    await this.store.addSeal({ gameId: this.gameId, phase, power }, seal);
    this.remember(phase, power, (old) => [...old.filter((s) => s.hash !== seal.hash), seal]);
  }

  /**
   * Stores a commit's secret, then the orders it sealed; from then they are the power's sealed
   * orders. `ahead`: the tag its secret was kept under by keepAhead, whose write has landed: the
   * secret is on disk already, so this write (which names it by the commit's id) is not waited for,
   * and the sealed orders count at once.
   */
  async sealed(phase: string, power: Power, orders: readonly Order[], draw: boolean, seal: SealKept, ahead?: string): Promise<void> {
    const k = { gameId: this.gameId, phase, power };
    // The secret and the sealed orders in one strict write, before the commit goes out (unless the
    // secret is on disk already): a commit whose secret is lost can only be opened by the others' shares.
    const stored = { draft: [...orders], sealed: [...orders], ...(draw ? { draw: true } : {}) } satisfies StoredOrders;
    const replaces = ahead === undefined ? undefined : pendingHash(ahead);
    const write = this.store.addSeal(k, seal, { orders: stored, now: seal.created }, replaces);
    if (ahead === undefined) await write;
    // Its failure is reported; the secret stays on disk under its tag, where the reveal finds it.
    else write.catch((e: unknown) => this.onError?.(e));
    this.remember(phase, power, (old) => [...old.filter((s) => s.hash !== seal.hash && s.hash !== replaces), seal]);
    this.phase = phase;
    this.state = {
      drafts: { ...this.state.drafts, [power]: orders },
      sealed: { ...this.state.sealed, [power]: orders },
      drawVotes: { ...this.state.drawVotes, [power]: draw },
    };
  }

  /** A power's seals in a phase: held in memory, else read from the store (`reload`: read again). */
  private async sealsOf(phase: string, power: Power, reload = false): Promise<readonly StoredSeal[]> {
    const held = this.seals.phase === phase ? this.seals.byPower.get(power) : undefined;
    if (held !== undefined && !reload) return held;
    const record = await this.store.getDraft({ gameId: this.gameId, phase, power });
    const read: readonly StoredSeal[] = record?.seals ?? [];
    if (this.seals.phase === phase) this.seals.byPower.set(power, read);
    return read;
  }

  /**
   * The commits this phone sealed for a power in a phase (with their signed bytes where kept), oldest
   * first. `reload`: read from the store again (another tab, or the service worker, of this device
   * may have sealed since).
   */
  async sealsKept(phase: string, power: Power, reload = false): Promise<StoredSeal[]> {
    const list = await this.sealsOf(phase, power, reload);
    return list.filter((s) => !isPending(s.hash)).sort((a, b) => a.created - b.created);
  }

  /**
   * The secret of every commit this phone made for these powers in a phase, by commit id, and of
   * every secret kept ahead, by pendingHash of its tag (for a commit whose own record a crash lost).
   * `reload`: read from the store again.
   */
  async secrets(phase: string, powers: readonly Power[], reload = false): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const power of powers) {
      for (const seal of await this.sealsOf(phase, power, reload)) {
        const s = scalarFromBytes(seal.key);
        if (s !== null) out.set(seal.hash, s);
      }
    }
    return out;
  }
}
