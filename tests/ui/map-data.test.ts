// The board drawing data: generated from the SVG by scripts/map-svg.ts and up to date with it,
// one entry per province of the rules' map, split coasts where the rules have them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTION, DATA_PATH, SVG_PATH, mapDataModule } from '../../scripts/map-svg';
import { STANDARD_MAP, STARTING_POSITION, supplyCentresOf } from '../../src/rules';
import { locPoint } from '../../src/ui/map/geometry';
import { MAP_HEIGHT, MAP_WIDTH, PROVINCE_ART } from '../../src/ui/map/map-data';

describe('map data', () => {
  it('is what scripts/map-svg.ts makes of the SVG, with the attribution line', () => {
    const svg = readFileSync(SVG_PATH, 'latin1');
    const committed = readFileSync(DATA_PATH, 'utf8');
    expect(committed).toBe(mapDataModule(svg));
    expect(committed).toContain(ATTRIBUTION);
  });

  it('has every province of the rules map and nothing else', () => {
    expect(Object.keys(PROVINCE_ART).sort()).toEqual(Object.keys(STANDARD_MAP.provinces).sort());
  });

  it('has split coasts exactly where the rules do, and supply-centre spots for the 34 centres', () => {
    for (const [id, p] of Object.entries(STANDARD_MAP.provinces)) {
      expect(Object.keys(PROVINCE_ART[id]!.coasts ?? {}).sort(), id).toEqual([...(p.coasts ?? [])].sort());
    }
    const drawn = Object.keys(PROVINCE_ART)
      .filter((id) => PROVINCE_ART[id]!.centre)
      .sort();
    expect(drawn).toEqual(supplyCentresOf(STANDARD_MAP).sort());
    expect(drawn).toHaveLength(34);
  });

  it('puts every spot inside the drawing and every starting unit on its own spot', () => {
    for (const art of Object.values(PROVINCE_ART)) {
      for (const p of [art.unit, art.label, ...(art.centre ? [art.centre] : []), ...Object.values(art.coasts ?? {})]) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.x).toBeLessThanOrEqual(MAP_WIDTH);
        expect(p.y).toBeGreaterThanOrEqual(0);
        expect(p.y).toBeLessThanOrEqual(MAP_HEIGHT);
      }
      expect(art.paths.length).toBeGreaterThan(0);
    }
    const spots = STARTING_POSITION.units.map((u) => JSON.stringify(locPoint(u.loc)));
    expect(new Set(spots).size).toBe(spots.length);
    expect(locPoint('stp/sc')).toEqual(PROVINCE_ART.stp!.coasts!.sc);
    expect(locPoint('stp')).toEqual(PROVINCE_ART.stp!.unit);
  });
});
