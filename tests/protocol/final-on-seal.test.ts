// finalDueOnSeal (client.ts): whether the FINAL of the slot being sealed falls due with that commit,
// which the app uses to send the FINAL in one burst with its commit (README.md "The last seal's
// burst"). It must be ballotDuties's own rule, read one commit early: after every seal, what it
// said before the seal is what ballotDuties says once the commit is in, with and without `ready`,
// for every player (one holding several powers among them).
import { describe, expect, it } from 'vitest';
import { ballotDuties, finalDueOnSeal, finalOrders } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { HOUR, T0 } from './helpers';
import { post, powersHeld, reduceAs, seal, table } from './sealed-adapter';

describe('finalDueOnSeal reads ballotDuties one commit early', () => {
  const cases: { seed: number; seats?: Power[][] }[] = [
    { seed: 1801 },
    { seed: 1802, seats: [['england', 'france', 'germany'], ['italy'], ['austria', 'russia'], ['turkey']] },
  ];
  for (const { seed, seats } of cases) {
    it(`seed ${seed}, ${seats?.length ?? 7} players: every seal, marked ready or not, predicts exactly the FINALs due after it`, () => {
      const t = table({ seed, ...(seats === undefined ? {} : { seats }) });
      const phase = reduceAs(t, null).current!.key;
      const seen = { due: 0, notDue: 0 };
      let time = T0 + HOUR;
      // Players in turn; every other one has marked its orders final; each seals each of its
      // powers, the first twice (a re-seal), and signs the FINALs that fall due, as the app does.
      const order = [...t.devices].reverse();
      for (const [i, d] of order.entries()) {
        const ready = i % 2 === 0 ? { ready: phase } : {};
        const powers = powersHeld(reduceAs(t, d), d).filter((p) => reduceAs(t, d).current!.required.includes(p));
        for (const [j, p] of [...powers, ...powers.slice(0, 1)].entries()) {
          const before = reduceAs(t, d);
          if (before.current!.ballot.finals[p] !== undefined) continue;
          const predicted = finalDueOnSeal(before, d.key, p, ready);
          seal(t, d, p, [], (time += 1000));
          const after = reduceAs(t, d);
          const due = ballotDuties(after, d.key, ready).finals;
          expect(predicted, `${d.key} ${p} seal ${j}`).toBe(due.includes(p));
          seen[predicted ? 'due' : 'notDue']++;
          post(
            t,
            due.map((s) => finalOrders(d.me, t.gameId, phase, s as Power, after.current!.ballot.heads[s]!, d.stamp((time += 1000)))),
          );
        }
        // Nobody else's slot is ever predicted due for this key.
        for (const p of Object.keys(reduceAs(t, d).current!.ballot.heads) as Power[])
          if (!powersHeld(reduceAs(t, d), d).includes(p)) expect(finalDueOnSeal(reduceAs(t, d), d.key, p, ready)).toBe(false);
      }
      expect(seen.due).toBeGreaterThan(0);
      expect(seen.notDue).toBeGreaterThan(0);
    });
  }
});
