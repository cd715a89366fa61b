import { describe, expect, it } from 'vitest';
import {
  CARDS,
  COMMITMENT_AT,
  CONNECTIONS,
  LIMITS,
  NEUTRAL_ENTRY,
  OPTIONAL_SETUP,
  SCENARIOS,
  SEED_SPELLINGS,
  SETUP,
  SPACES,
  TURNS,
  UNITS,
  card,
  isSpace,
  neighbours,
  space,
  unit,
  type Nation,
  type Placement,
} from '../../../src/games/pog/data';

// The shape of Paths of Glory's data, and its set-up against the seed rulebook
// (seeds/004, "Colocación inicial del juego", transcribed below in our own structure).

const ALL_NATIONS: readonly Nation[] = [
  'br',
  'fr',
  'be',
  'ru',
  'sb',
  'mn',
  'it',
  'ro',
  'gr',
  'us',
  'ge',
  'ah',
  'tu',
  'bu',
  'sn',
  'al',
  'pe',
  'ar',
  'eg',
  'none',
];
const RESERVE: Record<string, string> = { ap: 'ap-reserve', cp: 'cp-reserve' };

describe('the map', () => {
  it('has 281 spaces with unique ids and names, valid terrain, forts, ports and nations', () => {
    expect(SPACES).toHaveLength(281);
    expect(new Set(SPACES.map((s) => s.id)).size).toBe(281);
    expect(new Set(SPACES.map((s) => s.name)).size).toBe(281);
    expect(SPACES.filter((s) => s.map === 'neareast')).toHaveLength(63);
    for (const s of SPACES) {
      expect(s.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(ALL_NATIONS).toContain(s.nation);
      expect(['ap', 'cp']).toContain(s.side);
      expect(['clear', 'mountain', 'forest', 'desert', 'swamp']).toContain(s.terrain);
      if (s.fort !== undefined) expect([1, 2, 3]).toContain(s.fort);
      if (s.port !== undefined) expect(['ap', 'cp']).toContain(s.port);
      expect(Number.isInteger(s.x) && Number.isInteger(s.y)).toBe(true);
    }
  });

  it('names the capitals, supply sources and VP spaces the rules use', () => {
    const ids = (f: (s: (typeof SPACES)[number]) => boolean | undefined) =>
      SPACES.filter(f)
        .map((s) => s.id)
        .sort();
    expect(ids((s) => s.capital)).toEqual(
      ['athens', 'belgrade', 'berlin', 'bucharest', 'budapest', 'cetinje', 'constantinople', 'london', 'paris', 'rome', 'sofia', 'vienna'].sort(),
    );
    // 14.2: the supply sources.
    expect(ids((s) => s.supplySource)).toEqual(
      ['belgrade', 'breslau', 'caucasus', 'constantinople', 'essen', 'kharkov', 'london', 'moscow', 'petrograd', 'sofia'].sort(),
    );
    // 16.4.6: seven VP spaces in Russia besides Baku.
    const russian = SPACES.filter((s) => s.nation === 'ru' && s.vp && s.id !== 'baku');
    expect(russian).toHaveLength(LIMITS.russianVpSpaces);
    expect(space('baku').vp).toBe(true);
    expect(SPACES.filter((s) => s.vp)).toHaveLength(62);
    expect(SPACES.filter((s) => s.fort !== undefined)).toHaveLength(34);
    // The seed's questions and answers: Paris is no supply source; Antwerp is no port.
    expect(space('paris').supplySource).toBeUndefined();
    expect(space('antwerp').port).toBeUndefined();
    // The four MEF beaches (2.1).
    expect(SPACES.filter((s) => s.nation === 'none').map((s) => s.name)).toEqual(['MEF1', 'MEF2', 'MEF3', 'MEF4']);
  });

  it('has 476 connections between existing spaces, none twice, none to itself, all usable both ways', () => {
    expect(CONNECTIONS).toHaveLength(476);
    const seen = new Set<string>();
    for (const [a, b, only] of CONNECTIONS) {
      expect(isSpace(a) && isSpace(b), `${a}-${b}`).toBe(true);
      expect(a).not.toBe(b);
      const key = [a, b].sort().join('|');
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      if (only) {
        expect(only.length).toBeGreaterThan(0);
        for (const r of only) expect([...ALL_NATIONS, 'mef', 'ana']).toContain(r);
      }
      // Symmetric: each end lists the other, with the same restriction.
      expect(neighbours(a).find((n) => n.id === b)?.only).toEqual(only);
      expect(neighbours(b).find((n) => n.id === a)?.only).toEqual(only);
    }
    const degree = SPACES.reduce((sum, s) => sum + neighbours(s.id).length, 0);
    expect(degree).toBe(2 * 476);
    expect(CONNECTIONS.filter((c) => c[2] !== undefined)).toHaveLength(24);
  });

  it('is one connected map: every space reaches London', () => {
    const reached = new Set(['london']);
    const todo = ['london'];
    while (todo.length > 0) {
      for (const n of neighbours(todo.pop()!)) {
        if (!reached.has(n.id)) {
          reached.add(n.id);
          todo.push(n.id);
        }
      }
    }
    expect(SPACES.filter((s) => !reached.has(s.id)).map((s) => s.id)).toEqual([]);
  });

  it("the connections the seed's examples use exist", () => {
    const pairs = [
      ['liege', 'sedan'],
      ['sedan', 'chateau-thierry'],
      ['chateau-thierry', 'cambrai'],
      ['sedan', 'cambrai'],
      ['bar-le-duc', 'chateau-thierry'],
      ['dubno', 'tarnopol'],
      ['kamenets-podolski', 'tarnopol'],
      ['tarnopol', 'stanislau'],
      ['stanislau', 'czernowitz'],
      ['oppeln', 'czestochowa'],
      ['czestochowa', 'lodz'],
      ['munkacs', 'czernowitz'],
      ['tannenberg', 'lomza'],
    ];
    for (const [a, b] of pairs)
      expect(
        neighbours(a!).some((n) => n.id === b),
        `${a}-${b}`,
      ).toBe(true);
  });

  it("the seed's spellings that differ name no space directly and lead to one", () => {
    for (const [seed, id] of Object.entries(SEED_SPELLINGS)) {
      expect(SPACES.some((s) => s.name === seed)).toBe(false);
      expect(isSpace(id)).toBe(true);
    }
  });
});

describe('the units', () => {
  it("are the 185 counters of the seed's edition, with valid factors", () => {
    expect(UNITS).toHaveLength(185);
    expect(new Set(UNITS.map((u) => u.id)).size).toBe(185);
    const count = (side: string, kind: string) => UNITS.filter((u) => u.side === side && u.kind === kind).length;
    expect([count('ap', 'army'), count('ap', 'corps'), count('cp', 'army'), count('cp', 'corps')]).toEqual([41, 67, 26, 51]);
    for (const u of UNITS) {
      const [cf, lf, mf] = u.full;
      const [rcf, rlf, rmf] = u.reduced;
      expect(cf).toBeGreaterThanOrEqual(1);
      expect(cf).toBeLessThanOrEqual(5);
      expect(rcf).toBeGreaterThanOrEqual(0);
      expect(rcf).toBeLessThanOrEqual(cf);
      expect(rlf).toBeLessThanOrEqual(lf);
      expect(lf).toBeGreaterThanOrEqual(1);
      expect(mf).toBeLessThanOrEqual(4);
      expect(rmf).toBeLessThanOrEqual(mf);
      expect(u.kind === 'army' ? u.designation : 'corps').not.toBeNull();
      // 17.1.7: a unit that never takes replacements has no replacement kind, and the reverse.
      expect(u.rp === null).toBe(u.notReplaceable === true);
      expect(u.side).toBe(['ge', 'ah', 'tu', 'bu', 'sn'].includes(u.nation) ? 'cp' : 'ap');
    }
    // 2.2.1: "for most units" the loss and movement factors stay the same when reduced; only the
    // reduced Turkish armies move 2, and loss factors drop on a few special counters.
    expect(UNITS.filter((u) => u.reduced[2] !== u.full[2]).map((u) => u.id)).toEqual(['tu-yld-army', 'tu-aoi-army']);
    expect(UNITS.filter((u) => u.reduced[1] !== u.full[1]).map((u) => u.id)).toEqual(['br-bef-corps']);
    // The seed's combat example: GE 8th Army 5-3-3, GE corps 2-1-4, RU 2nd Army 3-2-3.
    expect(unit('ge-8-army').full).toEqual([5, 3, 3]);
    expect(unit('ge-corps-1').full).toEqual([2, 1, 4]);
    expect(unit('ru-2-army').full).toEqual([3, 2, 3]);
  });
});

describe('the cards', () => {
  it('are 55 per side: 14 mobilization, 20 limited war, 21 total war (2.3), numbered 1-55', () => {
    expect(CARDS).toHaveLength(110);
    for (const side of ['ap', 'cp'] as const) {
      const deck = CARDS.filter((c) => c.side === side);
      expect(deck.map((c) => c.number)).toEqual(Array.from({ length: 55 }, (_, i) => i + 1));
      const group = (g: string) => deck.filter((c) => c.commitment === g).length;
      expect([group('mobilization'), group('limited'), group('total')]).toEqual([14, 20, 21]);
    }
  });

  it('have values in range, texts in both languages, and reinforcements of their own side', () => {
    for (const c of CARDS) {
      expect(c.id).toBe(`${c.side}-${c.number}`);
      expect(c.ops).toBeGreaterThanOrEqual(2);
      expect(c.ops).toBeLessThanOrEqual(5);
      expect(c.sr).toBeGreaterThanOrEqual(c.ops);
      expect(c.sr).toBeLessThanOrEqual(5);
      if (c.warStatus !== undefined) expect([1, 2]).toContain(c.warStatus);
      const rp = Object.entries(c.rp);
      expect(rp.length).toBeGreaterThan(0);
      for (const [kind, n] of rp) {
        expect(c.side === 'ap' ? ['allied', 'br', 'fr', 'it', 'ru'] : ['ge', 'ah', 'tu', 'bu']).toContain(kind);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(4);
      }
      expect(c.event).toMatch(/^[a-z_]+$/);
      for (const t of [c.name, c.text]) {
        expect(t.en.length).toBeGreaterThan(2);
        expect(t.es.length).toBeGreaterThan(2);
      }
      expect(c.text.es).not.toBe(c.text.en);
      expect(c.event === 'reinforcements').toBe(c.reinforcements !== undefined);
      for (const id of c.reinforcements ?? []) expect(unit(id).side).toBe(c.side);
    }
    expect(new Set(CARDS.filter((c) => c.event !== 'reinforcements').map((c) => c.event)).size).toBe(CARDS.filter((c) => c.event !== 'reinforcements').length);
    expect(CARDS.filter((c) => c.combat)).toHaveLength(27);
  });

  it('agree with every value the seed states (its extended example and card changes)', () => {
    // [card, OPS] the extended example plays.
    const ops: [string, number][] = [
      ['ap-3', 3],
      ['cp-10', 3],
      ['ap-2', 4],
      ['cp-12', 4],
      ['ap-8', 2],
      ['cp-7', 3],
      ['ap-9', 3],
      ['cp-3', 2],
      ['ap-1', 4],
      ['ap-12', 3],
      ['cp-8', 3],
      ['ap-5', 2],
      ['cp-2', 2],
      ['ap-11', 3],
      ['cp-6', 3],
    ];
    for (const [id, n] of ops) expect(card(id).ops, id).toBe(n);
    // War status moves: Guns of August to 2, Oberost +1, BR reinforcements (#14) +1, Reichstag Truce +1.
    expect([card('cp-1').warStatus, card('cp-11').warStatus, card('ap-14').warStatus, card('cp-9').warStatus]).toEqual([2, 1, 1, 1]);
    // Replacement points: Falkenhayn AH 2, GE 3; Rape of Belgium A 1, FR 2, BR 2, RU 3 (of which 2 are spent "de los 3").
    expect(card('cp-13').rp).toMatchObject({ ah: 2, ge: 3 });
    expect(card('ap-13').rp).toEqual({ allied: 1, fr: 2, br: 2, it: 1, ru: 3 });
    // Removed after the event (asterisk): Guns of August, Oberost, BR reinforcements #14, Reichstag Truce.
    for (const id of ['cp-1', 'cp-11', 'ap-14', 'cp-9']) expect(card(id).removed, id).toBe(true);
    // Combat cards the example plays: Withdrawal, Pleve.
    expect([card('ap-6').combat, card('ap-4').combat]).toEqual([true, true]);
    // Questions and answers: They Shall Not Pass (Allied #39) has no asterisk.
    expect(card('ap-39').removed).toBeUndefined();
    // Card changes: the Kerensky Offensive (Allied #45) is not a combat card.
    expect(card('ap-45').combat).toBeUndefined();
  });
});

/** The seed's set-up, line by line, in our structure: where (the seed's spelling), whose units, how
 *  many generic corps full and reduced, which armies (by number or code) full and reduced, which
 *  special corps, and a level 1 trench. */
interface SeedLine {
  readonly nation: Nation;
  readonly at: string;
  readonly corps?: number;
  readonly reducedCorps?: number;
  readonly armies?: readonly string[];
  readonly reducedArmies?: readonly string[];
  readonly special?: readonly string[];
  readonly trench?: true;
}

const CP_BOX = 'CP Reserve Box';
const AP_BOX = 'Allied Reserve Box';

const SEED_SETUP: readonly SeedLine[] = [
  // Austria-Hungary
  { nation: 'ah', at: CP_BOX, corps: 5 },
  { nation: 'ah', at: 'Cracow', corps: 1, trench: true },
  { nation: 'ah', at: 'Tarnow', armies: ['1'] },
  { nation: 'ah', at: 'Przemysl', armies: ['4'] },
  { nation: 'ah', at: 'Tarnopol', armies: ['3'] },
  { nation: 'ah', at: 'Czernowitz', corps: 1 },
  { nation: 'ah', at: 'Munkacs', reducedArmies: ['2'] },
  { nation: 'ah', at: 'Timisvar', corps: 1 },
  { nation: 'ah', at: 'Novi Sad', armies: ['5'] },
  { nation: 'ah', at: 'Sarajevo', armies: ['6'] },
  { nation: 'ah', at: 'Trent', trench: true },
  { nation: 'ah', at: 'Villach', corps: 1, trench: true },
  { nation: 'ah', at: 'Trieste', trench: true },
  // Germany
  { nation: 'ge', at: CP_BOX, corps: 8 },
  { nation: 'ge', at: 'Bremen', reducedCorps: 1 },
  { nation: 'ge', at: 'Aachen', armies: ['1'] },
  { nation: 'ge', at: 'Koblenz', armies: ['2', '3'] },
  { nation: 'ge', at: 'Metz', armies: ['4', '5'], trench: true },
  { nation: 'ge', at: 'Strasbourg', armies: ['6'] },
  { nation: 'ge', at: 'Mulhouse', reducedArmies: ['7'], trench: true },
  { nation: 'ge', at: 'Konisberg', trench: true },
  { nation: 'ge', at: 'Insterberg', armies: ['8'], corps: 1 },
  { nation: 'ge', at: 'Oppelin', reducedCorps: 1 },
  // Belgium
  { nation: 'be', at: 'Antwerp', armies: ['1'] },
  { nation: 'be', at: AP_BOX, corps: 1 },
  // Britain
  { nation: 'br', at: AP_BOX, corps: 1, special: ['BEF'] },
  { nation: 'br', at: 'Brussels', armies: ['BEF'], trench: true },
  { nation: 'br', at: 'Port Said', reducedCorps: 1, trench: true },
  { nation: 'br', at: 'Cairo', reducedCorps: 1, trench: true },
  { nation: 'br', at: 'Basra', reducedCorps: 1, trench: true },
  // France
  { nation: 'fr', at: AP_BOX, corps: 7 },
  { nation: 'fr', at: 'Sedan', armies: ['5'] },
  { nation: 'fr', at: 'Verdun', armies: ['3', '4'], trench: true },
  { nation: 'fr', at: 'Nancy', armies: ['1', '2'], trench: true },
  { nation: 'fr', at: 'Belfort', corps: 2, trench: true },
  { nation: 'fr', at: 'Bar le Duc', reducedArmies: ['9'] },
  { nation: 'fr', at: 'Paris', reducedArmies: ['6'], trench: true },
  { nation: 'fr', at: 'Grenoble', corps: 1 },
  // Montenegro
  { nation: 'mn', at: 'Citje', corps: 1 },
  // Russia
  { nation: 'ru', at: AP_BOX, corps: 6 },
  { nation: 'ru', at: 'Riga', corps: 1, trench: true },
  { nation: 'ru', at: 'Szawli', corps: 1 },
  { nation: 'ru', at: 'Kovno', armies: ['1'] },
  { nation: 'ru', at: 'Grodno', corps: 1 },
  { nation: 'ru', at: 'Lomza', armies: ['2'] },
  { nation: 'ru', at: 'Ivangorod', armies: ['4'] },
  { nation: 'ru', at: 'Lublin', armies: ['5'] },
  { nation: 'ru', at: 'Dubno', armies: ['3'] },
  { nation: 'ru', at: 'Kamenets Podolski', armies: ['8'] },
  { nation: 'ru', at: 'Odessa', corps: 1, trench: true },
  { nation: 'ru', at: 'Batum', corps: 1 },
  { nation: 'ru', at: 'Kars', corps: 1 },
  { nation: 'ru', at: 'Erivan', corps: 1 },
  // Serbia
  { nation: 'sb', at: AP_BOX, corps: 2 },
  { nation: 'sb', at: 'Belgrade', armies: ['1'] },
  { nation: 'sb', at: 'Valjevo', armies: ['2'] },
];

/** The seed's neutral set-up (placed when each nation enters the war). */
const SEED_NEUTRAL: Readonly<Record<'bu' | 'gr' | 'it' | 'ro' | 'tu', { lines: readonly SeedLine[]; anyOther?: number }>> = {
  bu: { lines: [{ nation: 'bu', at: 'Sofia', corps: 2 }], anyOther: 4 },
  gr: {
    lines: [
      { nation: 'gr', at: 'Florina', corps: 1 },
      { nation: 'gr', at: 'Larisa', corps: 1 },
      { nation: 'gr', at: 'Athens', corps: 1 },
    ],
  },
  it: {
    lines: [
      { nation: 'it', at: AP_BOX, corps: 4 },
      { nation: 'it', at: 'Turin', corps: 1 },
      { nation: 'it', at: 'Verona', reducedArmies: ['1'] },
      { nation: 'it', at: 'Asiago', reducedArmies: ['4'] },
      { nation: 'it', at: 'Maggiore', reducedArmies: ['3'] },
      { nation: 'it', at: 'Udine', reducedArmies: ['2'] },
      { nation: 'it', at: 'Rome', corps: 1 },
      { nation: 'it', at: 'Tarento', corps: 1 },
    ],
  },
  ro: { lines: [{ nation: 'ro', at: 'Bucharest', corps: 2 }], anyOther: 4 },
  tu: {
    lines: [
      ...['Adrianople', 'Gallopoli', 'Constantinople', 'Balikesir', 'Ankara', 'Adana', 'Rize', 'Erzerum'].map((at): SeedLine => ({
        nation: 'tu',
        at,
        corps: 1,
      })),
      { nation: 'tu', at: 'Giresun', trench: true },
      { nation: 'tu', at: 'Van', corps: 1 },
      { nation: 'tu', at: 'Mosul', corps: 1 },
      { nation: 'tu', at: 'Baghdad', corps: 1, trench: true },
      { nation: 'tu', at: 'Damascus', corps: 1 },
      { nation: 'tu', at: 'Gaza', corps: 1, trench: true },
      { nation: 'tu', at: 'Medina', corps: 1 },
    ],
  },
};

/** A seed place name to our place id. */
function placeOf(name: string): string {
  if (name === CP_BOX) return 'cp-reserve';
  if (name === AP_BOX) return 'ap-reserve';
  const id = SEED_SPELLINGS[name] ?? SPACES.find((s) => s.name === name)?.id;
  if (id === undefined) throw new Error(`the seed's ${name} is not on the map`);
  return id;
}

/** What one nation has at one place, in a form both the seed and our data can be put in. */
function summary(units: readonly string[], reduced: readonly string[]): string {
  const parts: string[] = [];
  const generic = (ids: readonly string[]) => ids.filter((id) => unit(id).kind === 'corps' && unit(id).designation === null).length;
  const armies = (ids: readonly string[]) =>
    ids
      .filter((id) => unit(id).kind === 'army')
      .map((id) => unit(id).designation)
      .sort();
  const special = (ids: readonly string[]) =>
    ids
      .filter((id) => unit(id).kind === 'corps' && unit(id).designation !== null)
      .map((id) => unit(id).designation)
      .sort();
  parts.push(
    `corps ${generic(units)}/${generic(reduced)}`,
    `armies ${armies(units).join(',')}/${armies(reduced).join(',')}`,
    `special ${special(units).join(',')}/${special(reduced).join(',')}`,
  );
  return parts.join(' ');
}

function seedSummary(l: SeedLine): string {
  const arm = (a: readonly string[] = []) => [...a].sort().join(',');
  return `corps ${l.corps ?? 0}/${l.reducedCorps ?? 0} armies ${arm(l.armies)}/${arm(l.reducedArmies)} special ${arm(l.special)}/`;
}

/** Our placements as "place nation" -> summary, and the set of places with a trench. */
function fromData(placements: readonly Placement[]): { units: Map<string, string>; trenches: Set<string> } {
  const byKey = new Map<string, { units: string[]; reduced: string[] }>();
  const trenches = new Set<string>();
  for (const p of placements) {
    if (p.trench) trenches.add(p.at);
    for (const [list, ids] of [
      ['units', p.units ?? []],
      ['reduced', p.reduced ?? []],
    ] as const) {
      for (const id of ids) {
        const key = `${p.at} ${unit(id).nation}`;
        const entry = byKey.get(key) ?? { units: [], reduced: [] };
        entry[list].push(id);
        byKey.set(key, entry);
      }
    }
  }
  return { units: new Map([...byKey].map(([k, v]) => [k, summary(v.units, v.reduced)])), trenches };
}

function fromSeed(lines: readonly SeedLine[]): { units: Map<string, string>; trenches: Set<string> } {
  const units = new Map<string, string>();
  const trenches = new Set<string>();
  for (const l of lines) {
    const at = placeOf(l.at);
    if (l.trench) trenches.add(at);
    const s = seedSummary(l);
    if (s !== 'corps 0/0 armies / special /') {
      const key = `${at} ${l.nation}`;
      expect(units.has(key), key).toBe(false);
      units.set(key, s);
    }
  }
  return { units, trenches };
}

describe('the set-up', () => {
  const placed = (ps: readonly Placement[]) => ps.flatMap((p) => [...(p.units ?? []), ...(p.reduced ?? [])]);

  it('matches the seed\'s "Colocación inicial" line by line', () => {
    const data = fromData(SETUP);
    const seed = fromSeed(SEED_SETUP);
    expect(Object.fromEntries([...data.units].sort())).toEqual(Object.fromEntries([...seed.units].sort()));
    expect([...data.trenches].sort()).toEqual([...seed.trenches].sort());
    expect(seed.units.size).toBe(53);
    expect(seed.trenches.size).toBe(17);
  });

  it("matches the seed's neutral set-up for each nation that enters the war", () => {
    for (const [nation, entry] of Object.entries(NEUTRAL_ENTRY)) {
      const want = SEED_NEUTRAL[nation as keyof typeof SEED_NEUTRAL];
      const data = fromData(entry.placements);
      const seed = fromSeed(want.lines);
      expect(Object.fromEntries([...data.units].sort()), nation).toEqual(Object.fromEntries([...seed.units].sort()));
      expect([...data.trenches].sort(), nation).toEqual([...seed.trenches].sort());
      expect(entry.anyOther?.spaces, nation).toBe(want.anyOther);
      expect(entry.anyOther?.units.length, nation).toBe(want.anyOther);
      for (const id of entry.anyOther?.units ?? []) expect(unit(id)).toMatchObject({ nation, kind: 'corps', designation: null });
      for (const id of placed(entry.placements)) expect(unit(id).nation).toBe(nation);
    }
  });

  it('puts every unit on a space of its own side or in its own reserve box, within the stacking limit', () => {
    for (const p of [...SETUP, ...Object.values(NEUTRAL_ENTRY).flatMap((e) => e.placements)]) {
      for (const id of placed([p])) {
        const u = unit(id);
        if (p.at.endsWith('-reserve')) expect(p.at).toBe(RESERVE[u.side]);
        else expect(space(p.at).side, `${id} at ${p.at}`).toBe(u.side);
      }
      if (!p.at.endsWith('-reserve')) expect(isSpace(p.at), p.at).toBe(true);
    }
    const count = new Map<string, number>();
    for (const p of SETUP) if (!p.at.endsWith('-reserve')) count.set(p.at, (count.get(p.at) ?? 0) + placed([p]).length);
    for (const [at, n] of count) expect(n, at).toBeLessThanOrEqual(LIMITS.stacking);
  });

  it("places every unit exactly once: at the start, on a nation's entry, or by one reinforcement card", () => {
    const all = [
      ...placed(SETUP),
      ...Object.values(NEUTRAL_ENTRY).flatMap((e) => [...placed(e.placements), ...(e.anyOther?.units ?? [])]),
      ...CARDS.flatMap((c) => c.reinforcements ?? []),
    ];
    const seen = new Map<string, number>();
    for (const id of all) seen.set(id, (seen.get(id) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n !== 1)).toEqual([]);
    expect(UNITS.map((u) => u.id).filter((id) => !seen.has(id))).toEqual([]);
    expect([...seen.keys()].filter((id) => !UNITS.some((u) => u.id === id))).toEqual([]);
    expect(placed(SETUP)).toHaveLength(83);
  });

  it('the optional set-up (4.2.4) moves reserve corps and changes trenches where the seed says', () => {
    const reserve = placed(SETUP.filter((p) => p.at.endsWith('-reserve')));
    for (const m of OPTIONAL_SETUP.moves) {
      expect(reserve).toContain(m.unit);
      expect(isSpace(m.to)).toBe(true);
    }
    expect(OPTIONAL_SETUP.moves.map((m) => [unit(m.unit).nation, m.to])).toEqual([
      ['ah', placeOf('Stanislav')],
      ['ah', 'trent'],
      ['ru', 'lutsk'],
    ]);
    const trenches = fromData(SETUP).trenches;
    for (const s of OPTIONAL_SETUP.trenchRemoved) expect(trenches.has(s)).toBe(true);
    for (const s of OPTIONAL_SETUP.trenchAdded) expect(isSpace(s) && !trenches.has(s)).toBe(true);
  });
});

describe('the scenarios and the turn track', () => {
  it("are the seed's three, ending on turns 3, 10 and 20 with its victory levels", () => {
    expect(SCENARIOS.map((s) => [s.id, s.lastTurn, s.victory.centralFrom, s.victory.alliedUpTo])).toEqual([
      ['introductory', 3, 14, 10],
      ['limited', 10, 17, 12],
      ['campaign', 20, 13, 9],
    ]);
    expect(SCENARIOS.find((s) => s.id === 'campaign')?.victoryAfterBrestLitovsk).toEqual({ centralFrom: 11, alliedUpTo: 9 });
    expect(SCENARIOS.map((s) => [s.commitmentRises, s.peaceTerms, s.endsAtTotalWar])).toEqual([
      [false, false, false],
      [true, true, true],
      [true, true, false],
    ]);
  });

  it('has 20 turns: August and September 1914, then a season each; the seed names turns 1, 2, 3, 10 and 20', () => {
    expect(TURNS.map((t) => t.turn)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(TURNS[0]).toEqual({ turn: 1, year: 1914, season: 'summer', month: 'august' });
    expect(TURNS[1]).toEqual({ turn: 2, year: 1914, season: 'summer', month: 'september' });
    expect(TURNS[2]).toEqual({ turn: 3, year: 1914, season: 'fall' });
    expect(TURNS[9]).toEqual({ turn: 10, year: 1916, season: 'summer' });
    expect(TURNS[19]).toEqual({ turn: 20, year: 1919, season: 'winter' });
    expect(TURNS.filter((t) => t.season === 'winter').map((t) => t.year)).toEqual([1915, 1916, 1917, 1918, 1919]);
    expect(COMMITMENT_AT).toEqual({ limited: 4, total: 11 });
  });
});
