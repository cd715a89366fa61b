// What a tap on the board means (src/ui/map/hit.ts) and where the arrow keys go (keys.ts), in node:
// the drawing read as polygons, every unit spot inside its province, every tap within 8 px of any
// spot resolving to it on a phone's whole-map view even with a unit in every province, near misses
// of small targets, split coasts, and the arrow keys reaching every province.
import { describe, expect, it } from 'vitest';
import { STANDARD_MAP } from '../../src/rules';
import { FINGER_REACH_PX, coastsHittable, passable, polygonsOf, provinceAt, resolveTap } from '../../src/ui/map/hit';
import { bordering, neighbourInDirection, type Arrow } from '../../src/ui/map/keys';
import { MAP_WIDTH, PROVINCE_ART } from '../../src/ui/map/map-data';

/** A phone's default view: the whole map across 390 px. */
const PHONE = 390 / MAP_WIDTH;
const PASSABLE = Object.keys(PROVINCE_ART).filter(passable).sort();

/** Every spot a unit of a province can stand on: the province's, or one per split coast. */
function spots(id: string): { loc: string; at: { x: number; y: number } }[] {
  const art = PROVINCE_ART[id]!;
  const coasts = Object.entries(art.coasts ?? {}).map(([c, at]) => ({ loc: `${id}/${c}`, at }));
  return [{ loc: id, at: art.unit }, ...coasts];
}

describe('the drawing as polygons', () => {
  it('reads straight outlines and the North Sea arc', () => {
    expect(polygonsOf('M0,0 L10,0 L10,10 Z')).toEqual([
      [
        { x: 0, y: 0 },
        { x: 10, y: 0 },
        { x: 10, y: 10 },
      ],
    ]);
    // The arc bulges towards the corner it rounds: (185,170) lies inside it, (173,158) outside.
    expect(provinceAt({ x: 185, y: 170 })).toBe('nth');
    expect(provinceAt({ x: 173, y: 158 })).not.toBe('nth');
  });

  it('puts every unit and coast spot inside its own province', () => {
    for (const id of PASSABLE) for (const s of spots(id)) expect(provinceAt(s.at), s.loc).toBe(id);
  });

  it('finds land over the sea shape lying under it, and nothing off the map', () => {
    expect(provinceAt(PROVINCE_ART.den!.unit)).toBe('den');
    expect(provinceAt({ x: -5, y: -5 })).toBeNull();
  });
});

describe('a tap near a unit', () => {
  it('with a unit in every province, every tap within 8 px of a spot selects that unit at the phone view', () => {
    let worst = { loc: '', rate: 1 };
    for (const id of PASSABLE) {
      for (const s of spots(id)) {
        // The worst case: this unit and one on every other province's nearest spot.
        const units = [s, ...PASSABLE.filter((o) => o !== id).flatMap((o) => spots(o))];
        let hits = 0;
        let taps = 0;
        for (let r = 0; r <= 8; r += 2) {
          for (let k = 0; k < 24; k++) {
            const a = (k * Math.PI) / 12;
            const p = { x: s.at.x + (r / PHONE) * Math.cos(a), y: s.at.y + (r / PHONE) * Math.sin(a) };
            taps++;
            if (resolveTap(p, { scale: PHONE, units, targets: [] }) === id) hits++;
          }
        }
        if (hits / taps < worst.rate) worst = { loc: s.loc, rate: hits / taps };
      }
    }
    expect(worst).toEqual({ loc: '', rate: 1 });
  });

  it('is a tap on the province under the finger when no unit is that close', () => {
    const mos = PROVINCE_ART.mos!.unit;
    expect(resolveTap({ x: mos.x + 30, y: mos.y }, { scale: PHONE, units: [], targets: [] })).toBe('mos');
  });
});

describe('near misses and split coasts', () => {
  it('sends a tap beside a small target to it, not to the big province under the finger', () => {
    // Albania is 12 px wide on a phone: a tap just inside Greece, near Albania's spot, when only Albania is a target.
    const alb = PROVINCE_ART.alb!.unit;
    const inGreece = { x: alb.x + 6, y: alb.y + 14 };
    expect(provinceAt(inGreece)).toBe('gre');
    expect(resolveTap(inGreece, { scale: PHONE, units: [], targets: ['alb'] })).toBe('alb');
    // Without targets it is Greece, as drawn.
    expect(resolveTap(inGreece, { scale: PHONE, units: [], targets: [] })).toBe('gre');
  });

  it('sends a tap on impassable Switzerland or a border to the nearest province within reach', () => {
    const swi = PROVINCE_ART.swi!.unit;
    expect(provinceAt(swi)).toBe('swi');
    const got = resolveTap(swi, { scale: PHONE, units: [], targets: [] });
    expect(got).not.toBeNull();
    expect(got).not.toBe('swi');
    // Far out at sea off the drawing's corner nothing is within reach.
    expect(resolveTap({ x: -100, y: -100 }, { scale: PHONE, units: [], targets: [] })).toBeNull();
  });

  it('asks for the coast after the province while the coasts are close on screen, and lets far-apart coasts be hit', () => {
    // Bulgaria's coasts stand 16 px apart on a phone: a tap there is Bulgaria, then a choice.
    const ec = PROVINCE_ART.bul!.coasts!.ec!;
    const targets = ['bul/ec', 'bul/sc', 'spa/nc', 'spa/sc'];
    expect(coastsHittable('bul', PHONE)).toBe(false);
    expect(resolveTap({ x: ec.x + 1, y: ec.y + 1 }, { scale: PHONE, units: [], targets })).toBe('bul');
    const close = (2 * FINGER_REACH_PX) / 20; // zoomed so far in that they stand more than a fingertip apart
    expect(coastsHittable('bul', close)).toBe(true);
    expect(resolveTap({ x: ec.x + 1, y: ec.y + 1 }, { scale: close, units: [], targets })).toBe('bul/ec');
    // Spain's coasts are 49 px apart even on a phone: near one is that coast, mid-Spain is Spain.
    const nc = PROVINCE_ART.spa!.coasts!.nc!;
    const sc = PROVINCE_ART.spa!.coasts!.sc!;
    expect(resolveTap({ x: nc.x, y: nc.y + 3 }, { scale: PHONE, units: [], targets })).toBe('spa/nc');
    expect(resolveTap({ x: (nc.x + sc.x) / 2 + 10, y: (nc.y + sc.y) / 2 }, { scale: PHONE, units: [], targets })).toBe('spa');
  });
});

describe('arrow keys', () => {
  it('go to the neighbour that lies that way', () => {
    expect(neighbourInDirection('par', 'ArrowRight')).toBe('bur');
    expect(neighbourInDirection('par', 'ArrowUp')).toBe('pic');
    expect(neighbourInDirection('ven', 'ArrowRight')).toBe('tri');
    expect(neighbourInDirection('lon', 'ArrowLeft')).toBe('wal');
  });

  it('reach every province from Paris, and a bordering province first where one lies that way', () => {
    const arrows: Arrow[] = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
    const seen = new Map<string, number>([['par', 0]]);
    const queue = ['par'];
    for (let i = 0; i < queue.length; i++) {
      const at = queue[i]!;
      for (const a of arrows) {
        const next = neighbourInDirection(at, a);
        expect(passable(next)).toBe(true);
        if (!seen.has(next)) {
          seen.set(next, seen.get(at)! + 1);
          queue.push(next);
        }
      }
    }
    expect([...seen.keys()].sort()).toEqual(PASSABLE);
    // No province is more than a dozen key presses from Paris (it took 50 Tab presses to reach Paris).
    expect(Math.max(...seen.values())).toBeLessThanOrEqual(12);
    expect(bordering('par')).toEqual(new Set(STANDARD_MAP.armyEdges.par));
  });
});
