// Issue 12, attack 6: withheld and lost reveals. Property: each commit escrows its key to the
// other players, so the other players together open a vanished player's sealed orders and use
// them; a player who has read everything gains nothing by withholding (not even with bogus
// shares), a phone that breaks after sealing still has its orders played, table games cannot be
// stalled, and fewer than all the other players cannot open anything early.
import { describe, expect, it } from 'vitest';
import { canonicalText } from '../../src/protocol';
import type { Order, Power } from '../../src/rules';
import { T0 } from './helpers';
import {
  fork,
  openWithShares,
  powersHeld,
  reduceAs,
  revealOmittingShares,
  seal,
  sealAll,
  settle,
  table,
  voteOut,
  type Device,
  type Table,
  type TableOptions,
} from './sealed-adapter';

const HOUR = 3_600_000;
const NO_DEADLINE = 1_000_000_000_000; // src/ui/game/create.ts NO_DEADLINE_MS: a table game
const move = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const text = (o: readonly Order[] | null | undefined) => (o == null ? 'none' : canonicalText(o));
const SEVEN: Power[][] = [['austria'], ['england'], ['france'], ['germany'], ['italy'], ['russia'], ['turkey']];

const turkish = [move('turkey', 'A', 'con', 'bul'), move('turkey', 'F', 'ank', 'bla')];
const russian = [move('russia', 'A', 'war', 'gal')];

/** Everyone seals (Turkey and Russia their own plans); everyone but `withholders` finishes the phase. */
function sealedAndWithheld(
  seed: number,
  seats: Power[][],
  withholders: (t: Table) => Device[],
  opts: { settings?: TableOptions['settings']; bogusFor?: Power[] } = {},
) {
  const t = table({ seed, seats, ...(opts.settings === undefined ? {} : { settings: opts.settings }) });
  const v0 = reduceAs(t, null);
  const holderOf = (p: Power) => t.devices.find((d) => powersHeld(v0, d).includes(p))!;
  seal(t, holderOf('turkey'), 'turkey', turkish, T0 + HOUR, opts.bogusFor === undefined ? {} : { bogusShareFor: opts.bogusFor.map((p) => t.roster[p]) });
  seal(t, holderOf('russia'), 'russia', russian, T0 + HOUR);
  sealAll(t, t.devices, {}, T0 + HOUR, ['turkey', 'russia']);
  const out = withholders(t);
  settle(
    t,
    t.devices.filter((d) => !out.includes(d)),
    T0 + HOUR + 1,
    { hold: out },
  );
  return { t, out, holderOf };
}

/** After the reveal deadline the present players vote the withholders' powers out and finish. */
function voteWithholdersOut(t: Table, out: readonly Device[], at?: number): void {
  const v = reduceAs(t, null);
  if (v.current === undefined) return;
  const targets = out.flatMap((d) => powersHeld(v, d)).filter((p) => v.current!.required.includes(p) && !v.current!.timedOut.includes(p));
  const time = at ?? v.current.revealDeadline + HOUR;
  voteOut(
    t,
    t.devices.filter((d) => !out.includes(d)),
    targets,
    time,
  );
  settle(
    t,
    t.devices.filter((d) => !out.includes(d)),
    time,
  );
}

const turkeyPlayed = (t: Table) => text(reduceAs(t, null).phases[0]?.orders.turkey);

describe('attack 6: withholding a reveal gains nothing', () => {
  it('a player who reads everyone and withholds has its sealed orders opened by the others, and the phase closes at once', () => {
    const { t } = sealedAndWithheld(601, SEVEN, (x) => [x.devices[6]!]);
    const v = reduceAs(t, null);
    expect.soft(v.phases, 'no deadline and no vote needed: the others open Turkey’s orders').toHaveLength(1);
    expect(turkeyPlayed(t)).toBe(text(turkish));
  });

  it('a player holding Russia and Turkey withholds both: both are opened and played', () => {
    const seats: Power[][] = [['austria'], ['england'], ['france'], ['germany'], ['italy'], ['russia', 'turkey']];
    const { t } = sealedAndWithheld(602, seats, (x) => [x.devices[5]!]);
    const v = reduceAs(t, null);
    expect(text(v.phases[0]?.orders.turkey)).toBe(text(turkish));
    expect(text(v.phases[0]?.orders.russia)).toBe(text(russian));
  });

  it('revealing and withholding end the same for a player who escrowed honestly and for one who escrowed a bogus share', () => {
    for (const bogusFor of [undefined, ['austria'] as Power[]]) {
      const { t, out } = sealedAndWithheld(603, SEVEN, (x) => [x.devices[6]!], bogusFor === undefined ? {} : { bogusFor });
      const revealed = fork(t);
      settle(revealed, revealed.devices, T0 + 2 * HOUR);
      const withheld = fork(t);
      voteWithholdersOut(
        withheld,
        withheld.devices.filter((d) => out.some((o) => o.key === d.key)),
      );
      expect(turkeyPlayed(withheld), `bogus share for Austria: ${bogusFor !== undefined}`).toBe(turkeyPlayed(revealed));
    }
  });

  it('a colluding pair cannot keep one of them shut while the other plays: Russia releases its key but not its share of Turkey', () => {
    const { t } = sealedAndWithheld(604, SEVEN, (x) => [x.devices[5]!, x.devices[6]!]);
    const [russia, turkey] = [t.devices[5]!, t.devices[6]!];
    revealOmittingShares(t, russia, T0 + 2 * HOUR, [turkey.key]);
    voteWithholdersOut(t, [turkey]);
    voteWithholdersOut(t, [russia, turkey]);
    const v = reduceAs(t, null);
    const played = (p: Power) => v.phases[0]?.orders[p] !== undefined;
    expect(v.phases).toHaveLength(1);
    expect({ russia: played('russia'), turkey: played('turkey') }, 'both played or both held').toSatisfy(
      (x: { russia: boolean; turkey: boolean }) => x.russia === x.turkey,
    );
  });
});

describe('attack 6: a phone that breaks after sealing, and table games', () => {
  it('France seals and its phone breaks: after the deadline the others time it out and play its sealed orders', () => {
    const t = table({ seed: 611, seats: SEVEN });
    const france = t.devices[2]!;
    const french = [move('france', 'A', 'par', 'bur'), move('france', 'A', 'mar', 'spa')];
    seal(t, france, 'france', french, T0 + HOUR);
    sealAll(t, t.devices, {}, T0 + HOUR, ['france']);
    settle(
      t,
      t.devices.filter((d) => d !== france),
      T0 + HOUR + 1,
    );
    voteWithholdersOut(t, [france]);
    const v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect(text(v.phases[0]!.orders.france)).toBe(text(french));
  });

  it('a table game (no deadline) with a player who seals and then stops: the others close the phase within a day', () => {
    const settings = { deadlines: { movement: NO_DEADLINE, retreat: NO_DEADLINE, adjustment: NO_DEADLINE, lot: NO_DEADLINE } };
    const { t, out } = sealedAndWithheld(612, SEVEN, (x) => [x.devices[6]!], { settings });
    voteWithholdersOut(t, out, T0 + HOUR + 24 * HOUR);
    const v = reduceAs(t, null);
    expect(v.phases, 'closed a day after everyone else revealed, not after 30 years').toHaveLength(1);
    expect(turkeyPlayed(t)).toBe(text(turkish));
  });
});

describe('escrow threshold', () => {
  it('all the other players together open a sealed commit; any five of the six cannot; in a two-player game the opponent cannot', () => {
    const t = table({ seed: 621, seats: SEVEN });
    const france = t.devices[2]!;
    const french = [move('france', 'A', 'par', 'bur')];
    const c = seal(t, france, 'france', french, T0 + HOUR);
    const others = t.devices.filter((d) => d !== france);
    expect(text(openWithShares(t, c.id, others)), 'six of six').toBe(text(french));
    for (let k = 0; k < others.length; k++)
      expect(
        openWithShares(
          t,
          c.id,
          others.filter((_, i) => i !== k),
        ),
        'five of six',
      ).toBeNull();

    const two = table({ seed: 622, variant: 'two-players' });
    const [agt, efr] = two.devices as [Device, Device];
    const mine = seal(two, agt, 'austria', [], T0 + HOUR);
    expect(openWithShares(two, mine.id, [efr])).toBeNull();
  });
});
