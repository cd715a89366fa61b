// "Move via convoy" in the tap state machine: every province a convoy can reach lights up, and
// tapping one that only a convoy reaches (Yorkshire to Norway) gives that order, not a dropped
// selection.
import { describe, expect, it } from 'vitest';
import { STANDARD_MAP, type Position } from '../../src/rules';
import { IDLE, act, entryView, tapLoc, type EntryContext } from '../../src/ui/orders/entry';

const position: Position = {
  phase: { year: 1901, season: 'fall', kind: 'movement' },
  units: [
    { type: 'A', power: 'england', loc: 'yor' },
    { type: 'F', power: 'england', loc: 'nth' },
  ],
  centres: {},
  dislodged: [],
};
const ctx: EntryContext = { position, powers: ['england'], draft: [], map: STANDARD_MAP };

describe('move via convoy', () => {
  it('lights every destination a convoy reaches, and Norway from Yorkshire becomes the order', () => {
    const selected = tapLoc(IDLE, ctx, 'yor').state;
    expect(entryView(selected, ctx).actions).toContain('via-convoy');
    const via = act(selected, ctx, 'via-convoy').state;
    // Every coast of the North Sea but Yorkshire's own: where a fleet there can carry the army.
    expect(entryView(via, ctx).targets).toEqual(['bel', 'den', 'edi', 'hol', 'lon', 'nwy']);
    const out = tapLoc(via, ctx, 'nwy');
    expect(out.order).toEqual({ kind: 'move', power: 'england', unit: { type: 'A', loc: 'yor' }, to: 'nwy' });
    expect(out.state).toEqual(IDLE);
    // A province it could also walk to is the convoyed move when asked for by convoy.
    expect(tapLoc(via, ctx, 'edi').order).toEqual({ kind: 'move', power: 'england', unit: { type: 'A', loc: 'yor' }, to: 'edi', viaConvoy: true });
    // Without the button, Edinburgh is the walk.
    expect(tapLoc(selected, ctx, 'edi').order).toEqual({ kind: 'move', power: 'england', unit: { type: 'A', loc: 'yor' }, to: 'edi' });
  });
});
