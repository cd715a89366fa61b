// Secret draw votes: a DRAW message commits to a vote (a hash of it with a secret salt), and a
// DRAW-REVEAL publishes the salt once every surviving power has committed. Which commit counts is
// fixed by the other survivors' reveal locks, which name commits made before those reveals, so a
// power cannot change its vote after reading another's.
import nacl from 'tweetnacl';
import type { Power } from '../rules';
import { compareText, concatBytes, toBase64, utf8 } from './bytes';
import { canonicalEncode, hashHex } from './canonical';
import type { Message } from './envelope';
import type { Identity } from './identity';
import type { DrawPayload, DrawRevealPayload, PhaseKey } from './messages';

/**
 * The salt is derived from the signing secret, so a phone can reveal without having stored
 * anything, and nobody without the secret can try the two possible votes against the hash.
 */
export function drawSalt(identity: Identity, gameId: string, phase: PhaseKey, power: Power): string {
  const input = concatBytes(identity.signSecretKey, utf8(`pacto-draw-salt|${gameId}|${phase}|${power}`));
  return toBase64(nacl.hash(input).subarray(0, 32));
}

/** The seq is hashed in so that two commits of the same vote do not show the same hash. */
export function drawCommitment(gameId: string, phase: PhaseKey, power: Power, seq: number, yes: boolean, salt: string): string {
  return hashHex(canonicalEncode(['pacto-draw', gameId, phase, power, seq, yes, salt]));
}

export interface DrawTally {
  /** Survivors with at least one vote commit. */
  readonly committed: Power[];
  /** Survivors whose counted commit has been opened. */
  readonly revealed: Power[];
  /** Opened votes of the counted commits. */
  readonly votes: Map<Power, boolean>;
  /** Latest commit per power (highest seq): what an honest reveal locks. */
  readonly heads: Partial<Record<Power, string>>;
  readonly ignored: { id: string; reason: string }[];
}

/**
 * Counts one phase's draw messages, already filtered to those signed by the power's holder.
 * A power's counted commit: of its commits named by other survivors' locks, the one with the
 * lowest seq (honest locks name the latest seen, so a commit made later with a lower seq is
 * never the one chosen over an earlier-named one); its own lock only if nobody else names any.
 */
export function tallyDraw(
  gameId: string,
  survivors: readonly Power[],
  commits: readonly Message<DrawPayload>[],
  reveals: readonly Message<DrawRevealPayload>[],
): DrawTally {
  const ignored: { id: string; reason: string }[] = [];
  const byId = new Map<string, Message<DrawPayload>>();
  for (const c of commits) {
    if (!survivors.includes(c.payload.power)) ignored.push({ id: c.id, reason: 'draw-by-non-survivor' });
    else byId.set(c.id, c);
  }
  const heads: Partial<Record<Power, string>> = {};
  for (const c of [...byId.values()].sort((a, b) => b.payload.seq - a.payload.seq || compareText(a.id, b.id))) {
    if (heads[c.payload.power] === undefined) heads[c.payload.power] = c.id;
  }
  const committed = survivors.filter((p) => heads[p] !== undefined);

  const valid = reveals.filter((r) => {
    const p = r.payload;
    let reason: string | null = null;
    if (!survivors.includes(p.power)) reason = 'draw-by-non-survivor';
    else if (survivors.some((s) => p.lock[s] === undefined)) reason = 'draw-reveal-before-all-committed';
    else if (Object.entries(p.lock).some(([power, id]) => byId.get(id)?.payload.power !== power)) reason = 'draw-reveal-lock-names-unknown-commit';
    else if (opened(gameId, byId.get(p.lock[p.power]!)!, p.salt) === null) reason = 'draw-reveal-does-not-open';
    if (reason !== null) ignored.push({ id: r.id, reason });
    return reason === null;
  });

  const votes = new Map<Power, boolean>();
  for (const power of survivors) {
    const named = (own: boolean) => valid.filter((r) => (r.payload.power === power) === own).map((r) => byId.get(r.payload.lock[power]!)!);
    const others = named(false);
    const candidates = (others.length > 0 ? others : named(true)).sort((a, b) => a.payload.seq - b.payload.seq || compareText(a.id, b.id));
    const chosen = candidates[0];
    if (chosen === undefined) continue;
    for (const r of valid.filter((x) => x.payload.power === power)) {
      const vote = opened(gameId, chosen, r.payload.salt);
      if (vote !== null) {
        votes.set(power, vote);
        break;
      }
    }
  }
  const revealed = survivors.filter((p) => votes.has(p));
  return { committed, revealed, votes, heads, ignored };
}

function opened(gameId: string, c: Message<DrawPayload>, salt: string): boolean | null {
  const p = c.payload;
  if (drawCommitment(gameId, p.phase, p.power, p.seq, true, salt) === p.hash) return true;
  if (drawCommitment(gameId, p.phase, p.power, p.seq, false, salt) === p.hash) return false;
  return null;
}
