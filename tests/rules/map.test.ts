import { describe, expect, it } from 'vitest';
import {
  armyNeighbours,
  canStand,
  canUnitReachProvince,
  coastsOf,
  homeCentresOf,
  coastOf,
  fleetCoastsReachable,
  fleetNeighbours,
  HOME_CENTRES,
  isArmyAdjacent,
  isCoastal,
  isFleetAdjacent,
  isLand,
  isSea,
  isValidLoc,
  kindOf,
  locsOf,
  POWERS,
  provinceOf,
  STANDARD_MAP,
  STARTING_POSITION,
  SUPPLY_CENTRES,
  supplyCentresOf,
  type GameMap,
} from '../../src/rules';
import { SVG_BORDERS } from './map/svg-borders';

const map = STANDARD_MAP;
const ids = Object.keys(map.provinces);
const byKind = (kind: string) => ids.filter((id) => map.provinces[id]!.kind === kind).sort();

/** Undirected edges as 'a|b' with a < b. */
function undirected(edges: GameMap['armyEdges']): string[] {
  const out = new Set<string>();
  for (const [a, list] of Object.entries(edges)) for (const b of list) out.add(a < b ? `${a}|${b}` : `${b}|${a}`);
  return [...out].sort();
}

const EXPECTED_IDS =
  'adr aeg alb ank apu arm bal bar bel ber bla boh bot bre bud bul bur cly con den eas edi eng fin gal gas gre hel hol ' +
  'ion iri kie lon lvn lvp lyo mao mar mos mun naf nao nap nth nwg nwy par pic pie por pru rom ruh rum ser sev sil ska ' +
  'smy spa stp swe syr tri tun tus tyr tys ukr ven vie wal war wes yor';

describe('provinces', () => {
  it('has the 75 standard provinces plus Switzerland, keyed by their own id', () => {
    expect(ids.length).toBe(76);
    expect(ids.filter((id) => id !== 'swi').sort()).toEqual(EXPECTED_IDS.split(' '));
    for (const id of ids) expect(map.provinces[id]!.id).toBe(id);
    expect(map.provinces.swi!.kind).toBe('impassable');
  });

  it('has 19 seas, 14 inland provinces and 42 coastal provinces', () => {
    expect(byKind('sea')).toEqual('adr aeg bal bar bla bot eas eng hel ion iri lyo mao nao nth nwg ska tys wes'.split(' '));
    expect(byKind('land')).toEqual('boh bud bur gal mos mun par ruh ser sil tyr ukr vie war'.split(' '));
    expect(byKind('coast').length).toBe(42);
  });

  it('has 34 supply centres, none at sea', () => {
    expect(SUPPLY_CENTRES.length).toBe(34);
    expect([...SUPPLY_CENTRES].sort()).toEqual(SUPPLY_CENTRES);
    expect(supplyCentresOf(map)).toEqual(SUPPLY_CENTRES);
    for (const id of SUPPLY_CENTRES) expect(map.provinces[id]!.kind).not.toBe('sea');
    for (const neutral of ['bel', 'bul', 'den', 'gre', 'hol', 'nwy', 'por', 'rum', 'ser', 'spa', 'swe', 'tun']) {
      expect(SUPPLY_CENTRES).toContain(neutral);
      expect(map.provinces[neutral]!.home).toBeUndefined();
    }
  });

  it('has the 22 home centres of the rulebook', () => {
    expect(HOME_CENTRES).toEqual({
      austria: ['bud', 'tri', 'vie'],
      england: ['edi', 'lon', 'lvp'],
      france: ['bre', 'mar', 'par'],
      germany: ['ber', 'kie', 'mun'],
      italy: ['nap', 'rom', 'ven'],
      russia: ['mos', 'sev', 'stp', 'war'],
      turkey: ['ank', 'con', 'smy'],
    });
    const homes = ids.filter((id) => map.provinces[id]!.home !== undefined);
    expect(homes.length).toBe(22);
    for (const id of homes) expect(map.provinces[id]!.supplyCentre).toBe(true);
  });

  it('gives split coasts to Bulgaria, Spain and St Petersburg only', () => {
    const split = ids.filter((id) => map.provinces[id]!.coasts !== undefined).sort();
    expect(split).toEqual(['bul', 'spa', 'stp']);
    expect(map.provinces.bul!.coasts).toEqual(['ec', 'sc']);
    expect(map.provinces.spa!.coasts).toEqual(['nc', 'sc']);
    expect(map.provinces.stp!.coasts).toEqual(['nc', 'sc']);
  });

  it('names every province in English and Spanish, with abbreviations', () => {
    for (const id of ids) {
      const p = map.provinces[id]!;
      expect(p.name.en.length).toBeGreaterThan(2);
      expect(p.name.es.length).toBeGreaterThan(2);
      expect(p.abbr.en.length).toBeGreaterThan(0);
      if (id !== 'swi') expect(p.abbr.es.length).toBeGreaterThan(0);
    }
    expect(map.provinces.mao!.name).toEqual({ en: 'Mid-Atlantic Ocean', es: 'Atlántico Central' });
    expect(map.provinces.stp!.name.es).toBe('San Petersburgo');
    expect(map.provinces.wes!.name.es).toBe('Mediterráneo occidental');
    expect(map.provinces.lyo!.name.en).toBe('Gulf of Lyon');
    expect(map.provinces.tys!.name.en).toBe('Tyrrhenian Sea');
    expect(map.provinces.naf!.name.en).toBe('North Africa');
  });

  it('keeps the Spanish tables apart from the English ones where they clash (Gal)', () => {
    expect(map.provinces.wal!.name.es).toBe('Gales');
    expect(map.provinces.wal!.abbr.es).toContain('Gal');
    expect(map.provinces.gal!.abbr.es).toContain('Gli');
    expect(map.provinces.gal!.abbr.en).toContain('Gal');
    expect(map.provinces.gal!.abbr.es).not.toContain('Gal');
  });

  it('has no abbreviation shared by two provinces within one language', () => {
    for (const lang of ['en', 'es'] as const) {
      const seen = new Map<string, string>();
      for (const id of ids) {
        for (const a of map.provinces[id]!.abbr[lang]) {
          const key = a.toLowerCase();
          expect(seen.get(key) ?? id, `${lang} ${a}`).toBe(id);
          seen.set(key, id);
        }
      }
    }
  });

  it('has no name or alias shared by two provinces', () => {
    const fold = (s: string) =>
      s
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
    const seen = new Map<string, string>();
    for (const id of ids) {
      const p = map.provinces[id]!;
      for (const n of [p.name.en, p.name.es, ...(p.aliases ?? [])]) {
        expect(seen.get(fold(n)) ?? id, n).toBe(id);
        seen.set(fold(n), id);
      }
    }
  });
});

describe('rulebook tables', () => {
  // Seed 000's table of abbreviations (Spanish JOC edition), typed from the book as name:abbr.
  const SEED_000 =
    'syr Sir, arm Arm, smy Smi, ank Ank, con Con, bud Bud, gal Gli, tri Tri, vie Vie, boh Boh, tyr Tir, sev Seb, ' +
    'ukr Ucr, war Var, mos Mos, lvn Lvn, stp SPT, gre Gre, bul Bul, ser Ser, alb Alb, rum Rum, fin Fin, swe Sue, ' +
    'nwy Nor, den Din, hol Hol, bel Bel, spa Esp, por Por, naf Afr, tun Tun, nap Nap, apu Apu, rom Rom, tus Tos, ' +
    'ven Ven, pie Pia, mun Mun, sil Sil, pru Pru, ber Ber, ruh Ruh, kie Kie, mar Mar, gas Gas, bur Bor, par Par, ' +
    'bre Bre, pic Pic, lon Lon, wal Gal, yor Yor, lvp Liv, edi Edi, cly Cly, bar MBa, nwg MNo, bot GBo, bal Bal, ' +
    'ska Ska, nth MNt, hel Hel, eng CMa, nao AtN, iri MIr, mao AtC, wes MOC, lyo GLe, tys MTi, ion MJo, adr MAd, ' +
    'eas MOr, aeg MEg, bla MNe';
  // Where seed 002's table differs from seed 000's.
  const SEED_002 = 'stp SPt, wes MOc';

  it('has every abbreviation of both Spanish tables, on the right province', () => {
    const rows = `${SEED_000}, ${SEED_002}`.split(', ').map((r) => r.split(' ') as [string, string]);
    expect(rows.length).toBe(77);
    for (const [id, abbr] of rows) expect(map.provinces[id]!.abbr.es, `${abbr} -> ${id}`).toContain(abbr);
    const listed = new Set(rows.map(([id]) => id));
    expect(ids.filter((id) => !listed.has(id))).toEqual(['swi']);
  });

  it('has the Spanish names of seed 000 and the other spellings of seeds 002 and 003', () => {
    const es: Record<string, string> = {
      stp: 'San Petersburgo',
      mao: 'Atlántico Central',
      wes: 'Mediterráneo occidental',
      wal: 'Gales',
      gal: 'Galicia',
      eng: 'Canal de la Mancha',
      tun: 'Tunez',
      bur: 'Borgoña',
      tyr: 'Tirol',
      swi: 'Suiza',
    };
    for (const [id, name] of Object.entries(es)) expect(map.provinces[id]!.name.es).toBe(name);
    const aliases: Record<string, string[]> = {
      edi: ['Edinburgo'],
      vie: ['Vienna'],
      lon: ['London'],
      rum: ['Rumanía'],
      tun: ['Túnez'],
      stp: ['S. Petersburgo', 'St. Petesburgo', 'Saint Petersburg'],
      ank: ['Ancar'],
      tus: ['Toscany'],
      ska: ['Skaggerak'],
      mao: ['Mid Atlantic'],
      lyo: ['Gulf of Lyons'],
      tyr: ['Tyrol'],
    };
    for (const [id, list] of Object.entries(aliases)) for (const a of list) expect(map.provinces[id]!.aliases).toContain(a);
  });
});

describe('adjacency data', () => {
  it('counts 111 army edges and 141 fleet edges (undirected, coasts separate, Switzerland excluded)', () => {
    expect(undirected(map.armyEdges).length).toBe(111);
    expect(undirected(map.fleetEdges).length).toBe(141);
  });

  it('is symmetric', () => {
    for (const edges of [map.armyEdges, map.fleetEdges]) {
      for (const [a, list] of Object.entries(edges)) for (const b of list) expect(edges[b], `${b} -> ${a}`).toContain(a);
    }
  });

  it('lists neighbours sorted and without duplicates or self-loops', () => {
    for (const edges of [map.armyEdges, map.fleetEdges]) {
      for (const [a, list] of Object.entries(edges)) {
        expect([...new Set(list)].sort(), a).toEqual(list);
        expect(list).not.toContain(a);
      }
    }
  });

  it('joins armies only between non-sea provinces', () => {
    for (const [a, list] of Object.entries(map.armyEdges)) {
      for (const b of list) {
        expect(['land', 'coast']).toContain(map.provinces[a]!.kind);
        expect(['land', 'coast']).toContain(map.provinces[b]!.kind);
      }
    }
    for (const sea of byKind('sea')) expect(map.armyEdges[sea] ?? []).toEqual([]);
  });

  it('moves fleets only between valid sea or coast locs, never into a bare split-coast province', () => {
    for (const [a, list] of Object.entries(map.fleetEdges)) {
      for (const loc of [a, ...list]) {
        expect(isValidLoc(map, loc), loc).toBe(true);
        expect(['sea', 'coast']).toContain(kindOf(map, loc));
        if (map.provinces[provinceOf(loc)]!.coasts) expect(coastOf(loc), loc).toBeDefined();
      }
    }
    for (const inland of byKind('land')) expect(fleetNeighbours(map, inland)).toEqual([]);
  });

  it('gives every sea and coast some fleet move and every land province some army move', () => {
    for (const id of [...byKind('sea'), ...byKind('coast')]) {
      const locs = locsOf(map, id).filter((l) => map.provinces[id]!.coasts === undefined || coastOf(l));
      for (const loc of locs) expect(fleetNeighbours(map, loc).length, loc).toBeGreaterThan(0);
    }
    for (const id of [...byKind('land'), ...byKind('coast')]) expect(map.armyEdges[id]!.length, id).toBeGreaterThan(0);
  });

  it('joins two coastal provinces by fleet only if an army can also cross that border', () => {
    for (const [a, list] of Object.entries(map.fleetEdges)) {
      for (const b of list) {
        if (isCoastal(map, a) && isCoastal(map, b)) expect(isArmyAdjacent(map, a, b), `${a}-${b}`).toBe(true);
      }
    }
  });

  it('gives Switzerland no edges at all', () => {
    expect(map.armyEdges.swi ?? []).toEqual([]);
    expect(map.fleetEdges.swi ?? []).toEqual([]);
    for (const list of [...Object.values(map.armyEdges), ...Object.values(map.fleetEdges)]) {
      expect(list.map(provinceOf)).not.toContain('swi');
    }
    expect(locsOf(map, 'swi')).toEqual([]);
  });
});

describe('rulebook spot checks', () => {
  it('forbids a fleet Rome-Venice but allows the army (inner border, seed 003 §7)', () => {
    expect(isFleetAdjacent(map, 'rom', 'ven')).toBe(false);
    expect(isArmyAdjacent(map, 'rom', 'ven')).toBe(true);
    expect(canUnitReachProvince(map, 'F', 'rom', 'ven')).toBe(false);
    for (const to of ['tus', 'nap', 'tys']) expect(isFleetAdjacent(map, 'rom', to), to).toBe(true);
    for (const to of ['tri', 'apu', 'adr']) expect(isFleetAdjacent(map, 'ven', to), to).toBe(true);
    for (const to of ['mar', 'tus', 'lyo']) expect(isFleetAdjacent(map, 'pie', to), to).toBe(true);
  });

  it('lets units in Marseilles reach Spain, but a fleet on Spain north coast not Marseilles', () => {
    expect(canUnitReachProvince(map, 'A', 'mar', 'spa')).toBe(true);
    expect(canUnitReachProvince(map, 'F', 'mar', 'spa')).toBe(true);
    expect(fleetCoastsReachable(map, 'mar', 'spa')).toEqual(['spa/sc']);
    expect(canUnitReachProvince(map, 'F', 'spa/nc', 'mar')).toBe(false);
    expect(canUnitReachProvince(map, 'F', 'spa/sc', 'mar')).toBe(true);
    expect(canUnitReachProvince(map, 'A', 'spa', 'mar')).toBe(true);
  });

  it('has the coast-specific edges of the split-coast provinces', () => {
    expect(fleetNeighbours(map, 'spa/nc')).toEqual(['gas', 'mao', 'por']);
    expect(fleetNeighbours(map, 'spa/sc')).toEqual(['lyo', 'mao', 'mar', 'por', 'wes']);
    expect(fleetNeighbours(map, 'stp/nc')).toEqual(['bar', 'nwy']);
    expect(fleetNeighbours(map, 'stp/sc')).toEqual(['bot', 'fin', 'lvn']);
    expect(fleetNeighbours(map, 'bul/ec')).toEqual(['bla', 'con', 'rum']);
    expect(fleetNeighbours(map, 'bul/sc')).toEqual(['aeg', 'con', 'gre']);
    expect(fleetNeighbours(map, 'spa')).toEqual([]);
    expect(fleetCoastsReachable(map, 'mao', 'spa')).toEqual(['spa/nc', 'spa/sc']);
    expect(fleetCoastsReachable(map, 'con', 'bul')).toEqual(['bul/ec', 'bul/sc']);
    expect(fleetCoastsReachable(map, 'bla', 'bul')).toEqual(['bul/ec']);
    expect(fleetCoastsReachable(map, 'nwy', 'stp')).toEqual(['stp/nc']);
    expect(isFleetAdjacent(map, 'gas', 'spa/sc')).toBe(false);
    expect(isFleetAdjacent(map, 'bot', 'stp/nc')).toBe(false);
  });

  it('separates the Baltic from the Skagerrak (via Denmark or Sweden)', () => {
    expect(isFleetAdjacent(map, 'bal', 'ska')).toBe(false);
    for (const step of ['den', 'swe']) {
      expect(isFleetAdjacent(map, 'bal', step)).toBe(true);
      expect(isFleetAdjacent(map, step, 'ska')).toBe(true);
    }
  });

  it('joins Denmark and Sweden for armies and fleets, and not Denmark and Berlin', () => {
    expect(isArmyAdjacent(map, 'den', 'swe')).toBe(true);
    expect(isFleetAdjacent(map, 'den', 'swe')).toBe(true);
    expect(isArmyAdjacent(map, 'den', 'ber')).toBe(false);
    expect(isFleetAdjacent(map, 'den', 'ber')).toBe(false);
  });

  it('treats Kiel and Constantinople as canals', () => {
    for (const to of ['bal', 'ber', 'den', 'hel', 'hol']) expect(isFleetAdjacent(map, 'kie', to), to).toBe(true);
    for (const to of ['aeg', 'ank', 'bla', 'bul/ec', 'bul/sc', 'smy']) expect(isFleetAdjacent(map, 'con', to), to).toBe(true);
    expect(isFleetAdjacent(map, 'bla', 'aeg')).toBe(false);
    expect(isFleetAdjacent(map, 'hel', 'bal')).toBe(false);
    expect(isFleetAdjacent(map, 'kie', 'mun')).toBe(false);
  });

  it('keeps fleets off inner borders between coastal provinces', () => {
    const inner: [string, string][] = [
      ['apu', 'rom'],
      ['tus', 'ven'],
      ['ank', 'smy'],
      ['arm', 'smy'],
      ['arm', 'syr'],
      ['wal', 'yor'],
      ['lvp', 'yor'],
      ['edi', 'lvp'],
      ['gre', 'ser'],
      ['fin', 'nwy'],
      ['spa', 'gas'],
      ['pru', 'sil'],
    ];
    for (const [a, b] of inner) {
      expect(isFleetAdjacent(map, a, b), `${a}-${b}`).toBe(false);
    }
    for (const [a, b] of inner.filter(([x]) => x !== 'pru' && x !== 'spa')) expect(isArmyAdjacent(map, a, b), `${a}-${b}`).toBe(true);
  });
});

describe('query functions', () => {
  it('splits locs into province and coast', () => {
    expect(provinceOf('stp/sc')).toBe('stp');
    expect(provinceOf('par')).toBe('par');
    expect(coastOf('stp/sc')).toBe('sc');
    expect(coastOf('bul/ec')).toBe('ec');
    expect(coastOf('par')).toBeUndefined();
    expect(coastOf('par/xx')).toBeUndefined();
  });

  it('lists the locs of a province and validates locs', () => {
    expect(locsOf(map, 'stp')).toEqual(['stp', 'stp/nc', 'stp/sc']);
    expect(locsOf(map, 'par')).toEqual(['par']);
    expect(locsOf(map, 'xyz')).toEqual([]);
    expect(isValidLoc(map, 'spa/nc')).toBe(true);
    expect(isValidLoc(map, 'spa/ec')).toBe(false);
    expect(isValidLoc(map, 'par/nc')).toBe(false);
    expect(isValidLoc(map, 'swi')).toBe(false);
    expect(isValidLoc(map, 'xyz')).toBe(false);
  });

  it('tells seas, coasts and inland provinces apart', () => {
    expect(isSea(map, 'nth')).toBe(true);
    expect(isSea(map, 'bre')).toBe(false);
    expect(isCoastal(map, 'stp/nc')).toBe(true);
    expect(isCoastal(map, 'par')).toBe(false);
    expect(isLand(map, 'par')).toBe(true);
    expect(isLand(map, 'swi')).toBe(false);
    expect(kindOf(map, 'swi')).toBe('impassable');
    expect(kindOf(map, 'xyz')).toBeUndefined();
  });

  it('ignores coasts for army adjacency and keeps them for fleets', () => {
    expect(isArmyAdjacent(map, 'stp', 'nwy')).toBe(true);
    expect(isArmyAdjacent(map, 'stp/sc', 'nwy')).toBe(true);
    expect(isFleetAdjacent(map, 'stp/sc', 'nwy')).toBe(false);
    expect(canUnitReachProvince(map, 'F', 'stp/nc', 'nwy')).toBe(true);
    expect(canUnitReachProvince(map, 'A', 'par', 'eng')).toBe(false);
    expect(canUnitReachProvince(map, 'F', 'eng', 'par')).toBe(false);
    expect(canUnitReachProvince(map, 'F', 'nth', 'lon')).toBe(true);
  });
});

describe('more queries', () => {
  it('says where each unit type may stand', () => {
    expect(canStand(map, 'A', 'par')).toBe(true);
    expect(canStand(map, 'A', 'stp')).toBe(true);
    expect(canStand(map, 'A', 'stp/nc')).toBe(false);
    expect(canStand(map, 'A', 'nth')).toBe(false);
    expect(canStand(map, 'A', 'swi')).toBe(false);
    expect(canStand(map, 'F', 'nth')).toBe(true);
    expect(canStand(map, 'F', 'bre')).toBe(true);
    expect(canStand(map, 'F', 'stp/nc')).toBe(true);
    expect(canStand(map, 'F', 'stp')).toBe(false);
    expect(canStand(map, 'F', 'par')).toBe(false);
    expect(canStand(map, 'F', 'swi')).toBe(false);
    const fleetSpots = ids.flatMap((id) => locsOf(map, id)).filter((loc) => canStand(map, 'F', loc));
    expect(fleetSpots.length).toBe(19 + 42 - 3 + 6);
  });

  it('lists coasts and army neighbours', () => {
    expect(coastsOf(map, 'bul')).toEqual(['ec', 'sc']);
    expect(coastsOf(map, 'par')).toEqual([]);
    expect(armyNeighbours(map, 'mun')).toEqual(['ber', 'boh', 'bur', 'kie', 'ruh', 'sil', 'tyr']);
    expect(armyNeighbours(map, 'stp/nc')).toEqual(['fin', 'lvn', 'mos', 'nwy']);
    expect(armyNeighbours(map, 'nth')).toEqual([]);
  });

  it('derives home centres from any map', () => {
    for (const power of POWERS) expect(homeCentresOf(map, power)).toEqual(HOME_CENTRES[power]);
  });

  it('builds its records in sorted key order, for stable serialisation', () => {
    for (const rec of [map.provinces, map.armyEdges, map.fleetEdges, STARTING_POSITION.centres]) {
      const keys = Object.keys(rec);
      expect([...keys].sort()).toEqual(keys);
    }
  });
});

describe('starting position', () => {
  it('is Spring 1901 movement with 22 units on their home centres', () => {
    expect(STARTING_POSITION.phase).toEqual({ year: 1901, season: 'spring', kind: 'movement' });
    expect(STARTING_POSITION.dislodged).toEqual([]);
    expect(STARTING_POSITION.units.length).toBe(22);
    const locs = STARTING_POSITION.units.map((u) => u.loc);
    expect([...locs].sort()).toEqual(locs);
    for (const u of STARTING_POSITION.units) {
      expect(HOME_CENTRES[u.power]).toContain(provinceOf(u.loc));
      expect(isValidLoc(map, u.loc)).toBe(true);
      if (u.type === 'F') expect(fleetNeighbours(map, u.loc).length).toBeGreaterThan(0);
      else expect(isSea(map, u.loc)).toBe(false);
    }
    const fleets = STARTING_POSITION.units
      .filter((u) => u.type === 'F')
      .map((u) => u.loc)
      .sort();
    expect(fleets).toEqual(['ank', 'bre', 'edi', 'kie', 'lon', 'nap', 'sev', 'stp/sc', 'tri']);
  });

  it('owns exactly the home centres', () => {
    const centres = STARTING_POSITION.centres;
    expect(Object.keys(centres).length).toBe(22);
    for (const power of POWERS) {
      for (const id of HOME_CENTRES[power]) expect(centres[id]).toBe(power);
      expect(STARTING_POSITION.units.filter((u) => u.power === power).length).toBe(HOME_CENTRES[power].length);
    }
  });
});

describe('agreement with the board drawing (tests/rules/map/svg-borders.ts)', () => {
  const pair = (a: string, b: string) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  const drawn = SVG_BORDERS.flatMap((line) => line.split(/ (?=[a-z])/)).map((entry) => {
    const [a = '', b = ''] = entry.split(' ')[0]!.split('-');
    return { a, b };
  });
  const isSeaLoc = (loc: string) => isSea(map, loc);
  // Quirks of the drawing, explained in svg-borders.ts.
  const UNDRAWN_SEA = ['bel-nth', 'hol-nth', 'lon-nth', 'nth-nwy', 'nth-yor'];
  const DRAWING_ARTIFACT = ['lvp-nth'];
  const RULE_NOT_DRAWING = ['den-swe'];

  it('reads the whole fixture', () => {
    expect(drawn.length).toBe(213);
    for (const { a, b } of drawn) {
      expect(isValidLoc(map, a) || a === 'swi', a).toBe(true);
      expect(isValidLoc(map, b) || b === 'swi', b).toBe(true);
    }
  });

  it('has exactly the drawn land borders as army edges (plus Denmark-Sweden)', () => {
    const land = new Set(
      drawn.filter(({ a, b }) => !isSeaLoc(a) && !isSeaLoc(b) && a !== 'swi' && b !== 'swi').map(({ a, b }) => pair(provinceOf(a), provinceOf(b))),
    );
    const army = undirected(map.armyEdges).map((k) => k.replace('|', '-'));
    expect(army.filter((k) => !land.has(k))).toEqual(RULE_NOT_DRAWING);
    expect([...land].filter((k) => !army.includes(k))).toEqual([]);
  });

  it('has exactly the drawn sea borders as fleet edges, coast by coast', () => {
    const sea = new Set(drawn.filter(({ a, b }) => isSeaLoc(a) || isSeaLoc(b)).map(({ a, b }) => pair(a, b)));
    const fleetSea = undirected(map.fleetEdges)
      .map((k) => k.replace('|', '-'))
      .filter((k) => k.split('-').some(isSeaLoc));
    expect(fleetSea.filter((k) => !sea.has(k))).toEqual(UNDRAWN_SEA);
    expect([...sea].filter((k) => !fleetSea.includes(k)).sort()).toEqual(DRAWING_ARTIFACT);
  });

  it('runs coast-to-coast fleet edges only along drawn land borders', () => {
    const borders = new Set(drawn.map(({ a, b }) => pair(provinceOf(a), provinceOf(b))));
    const coastal = undirected(map.fleetEdges)
      .map((k) => k.split('|') as [string, string])
      .filter(([a, b]) => !isSeaLoc(a) && !isSeaLoc(b))
      .map(([a, b]) => pair(provinceOf(a), provinceOf(b)));
    expect(coastal.length).toBe(45);
    expect(coastal.filter((k) => !borders.has(k))).toEqual(RULE_NOT_DRAWING);
  });

  it('draws Switzerland between five provinces, none of them joined through it', () => {
    const swiss = drawn.filter(({ a, b }) => a === 'swi' || b === 'swi').map(({ a, b }) => (a === 'swi' ? b : a));
    expect(swiss.sort()).toEqual(['bur', 'mar', 'mun', 'pie', 'tyr']);
  });
});
