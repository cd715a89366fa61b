// Walking the order-entry machine: every order a player can reach by taps, buttons and choices.
import { provinceOf, type Order } from '../../src/rules';
import { act, choose, entryView, tapLoc, type EntryContext, type EntryState } from '../../src/ui/orders/entry';

export const key = (o: Order): string => JSON.stringify(o);

/** Every order reachable from `from` by tapping offered targets, pressing offered buttons and picking options. */
export function reachable(ctx: EntryContext, from: EntryState): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue: EntryState[] = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    const id = JSON.stringify(state);
    if (seen.has(id)) continue;
    seen.add(id);
    const view = entryView(state, ctx);
    const outcomes = [
      ...view.targets.map((t) => tapLoc(state, ctx, t)),
      // a tap on the bare province of a coast target must also work (it may ask which coast)
      ...view.targets.map((t) => tapLoc(state, ctx, provinceOf(t))),
      ...view.actions.filter((a) => a !== 'cancel').map((a) => act(state, ctx, a)),
      ...view.options.map((_, i) => choose(state, i)),
    ];
    if (state.step === 'move') outcomes.push(tapLoc(state, ctx, state.unit)); // tap the unit again: hold
    for (const out of outcomes) {
      if (out.order) found.add(key(out.order));
      if (out.state.step !== 'idle' && (!('unit' in out.state) || out.state.unit === ('unit' in state ? state.unit : out.state.unit))) queue.push(out.state);
    }
  }
  return found;
}
