// Kruijswijk's guess-and-check resolver ("The Math of Adjudication", DATC 5.F). Each unit with a
// move, support or convoy order is one yes/no decision. resolve() guesses "fails" when it meets a
// decision already being worked on; if the answer then depends on that guess, it tries "succeeds"
// too. One consistent answer is taken; two or none mean a cycle, settled by the backup rule.
import { CONVOY, MOVE, type Ctx } from './context';

// Kept local: this module is the hot path, and these are compared on every call.
const UNRESOLVED = 0;
const GUESSING = 1;
const RESOLVED = 2;

export type Adjudicator = (ctx: Ctx, u: number) => boolean;

export function resolve(ctx: Ctx, u: number, adjudicate: Adjudicator): boolean {
  const { state, res, deps } = ctx;
  if (state[u] === RESOLVED) return res[u] === 1;
  if (state[u] === GUESSING) {
    if (!deps.includes(u)) deps.push(u);
    return res[u] === 1;
  }
  const mark = deps.length;
  res[u] = 0;
  state[u] = GUESSING;
  const first = adjudicate(ctx, u);
  if (deps.length === mark) {
    // The answer did not rest on any guess (or the backup rule already settled u).
    if (state[u] !== RESOLVED) {
      res[u] = first ? 1 : 0;
      state[u] = RESOLVED;
    }
    return res[u] === 1;
  }
  if (deps[mark] !== u) {
    // Rests on a guess made further up: keep guessing, let that decision finish the cycle.
    deps.push(u);
    res[u] = first ? 1 : 0;
    return first;
  }
  // u heads the cycle: try the other guess.
  reset(ctx, mark);
  res[u] = 1;
  state[u] = GUESSING;
  const second = adjudicate(ctx, u);
  if (first === second) {
    reset(ctx, mark);
    res[u] = first ? 1 : 0;
    state[u] = RESOLVED;
    return first;
  }
  backupRule(ctx, mark);
  return resolve(ctx, u, adjudicate);
}

function reset(ctx: Ctx, mark: number): void {
  const { deps, state } = ctx;
  for (let k = mark; k < deps.length; k++) state[deps[k]!] = UNRESOLVED;
  deps.length = mark;
}

/**
 * A cycle with no or two consistent answers. With a convoy in it, it is a convoy paradox and the
 * Szykman rule applies: the convoys in the cycle fail (DATC 4.A.2, 5.B.9). Otherwise it is
 * circular movement, and every move in the cycle succeeds.
 */
function backupRule(ctx: Ctx, mark: number): void {
  const { deps, state, res, kind } = ctx;
  let paradox = false;
  for (let k = mark; k < deps.length; k++) if (kind[deps[k]!] === CONVOY) paradox = true;
  const settle = paradox ? CONVOY : MOVE;
  let settled = false;
  for (let k = mark; k < deps.length; k++) {
    const d = deps[k]!;
    if (kind[d] === settle) {
      res[d] = paradox ? 0 : 1;
      state[d] = RESOLVED;
      settled = true;
    } else {
      state[d] = UNRESOLVED;
    }
  }
  if (!settled) {
    // Not a shape the standard rules know (no move, no convoy): everything in it fails.
    for (let k = mark; k < deps.length; k++) {
      res[deps[k]!] = 0;
      state[deps[k]!] = RESOLVED;
    }
  }
  deps.length = mark;
}
