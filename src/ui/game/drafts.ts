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
  readonly nonce?: Uint8Array;
  readonly hash: string;
  readonly created: number;
  readonly entry?: Uint8Array;
}

export class Drafts {
  private phase = '';
  private state: DraftState = { drafts: {}, sealed: {}, drawVotes: {} };
  /** The latest commit sealed per power in the phase loaded, as the store held it then (load). */
  private loadedSeals: Partial<Record<Power, SealKept>> = {};

  constructor(
    private readonly store: PactoStore,
    private readonly gameId: string,
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
    const latest: Partial<Record<Power, SealKept>> = {};
    for (const power of powers) {
      const r = await this.store.getDraft({ gameId: this.gameId, phase, power });
      if (r === undefined) continue;
      const last = [...r.seals].sort((a, b) => a.created - b.created).at(-1);
      if (last !== undefined) latest[power] = last;
      const s = storedOrders(r.orders);
      drafts[power] = s.draft;
      if (s.sealed !== null) sealed[power] = s.sealed;
      if (s.draw === true) drawVotes[power] = true;
    }
    this.phase = phase;
    this.state = { drafts, sealed, drawVotes };
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

  /** Stores a commit's secret, then the orders it sealed; from then they are the power's sealed orders. */
  async sealed(phase: string, power: Power, orders: readonly Order[], draw: boolean, seal: SealKept): Promise<void> {
    const k = { gameId: this.gameId, phase, power };
    // The secret and the sealed orders in one strict write, before the commit goes out: a commit
    // whose secret is lost can only be opened by the others' shares.
    const stored = { draft: [...orders], sealed: [...orders], ...(draw ? { draw: true } : {}) } satisfies StoredOrders;
    await this.store.addSeal(k, seal, { orders: stored, now: seal.created });
    this.phase = phase;
    this.state = {
      drafts: { ...this.state.drafts, [power]: orders },
      sealed: { ...this.state.sealed, [power]: orders },
      drawVotes: { ...this.state.drawVotes, [power]: draw },
    };
  }

  /** The commits this phone sealed for a power in a phase, oldest first (from its store). */
  async seals(phase: string, power: Power): Promise<SealKept[]> {
    const record = await this.store.getDraft({ gameId: this.gameId, phase, power });
    return [...(record?.seals ?? [])].sort((a, b) => a.created - b.created);
  }

  /** The secret of every commit this phone made for these powers in a phase, by commit id. */
  async secrets(phase: string, powers: readonly Power[]): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const power of powers) {
      const record = await this.store.getDraft({ gameId: this.gameId, phase, power });
      for (const seal of record?.seals ?? []) {
        const s = scalarFromBytes(seal.key);
        if (s !== null) out.set(seal.hash, s);
      }
    }
    return out;
  }
}
