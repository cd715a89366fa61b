// Converts Martin Asal's Diplomacy.svg (public/map/diplomacy-asal.svg) into the board data the app
// draws: src/ui/map/map-data.ts, keyed by our province ids. Run after changing the drawing:
//   npx tsx scripts/map-svg.ts
// tests/ui/map-data.test.ts re-runs the conversion and fails if the committed file is stale.
// The output is a derived work of the drawing and carries its licence (CC BY-SA 3.0 DE).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Point, ProvinceArt } from '../src/ui/map/art';

export const ATTRIBUTION = 'Map based on Diplomacy.svg by Martin Asal, CC BY-SA 3.0 DE';

function point(text: string): Point {
  const [x, y] = text.split(',').map((s) => Number(s.trim()));
  if (x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y)) throw new Error(`bad point ${text}`);
  return { x, y };
}

/** Points lists in the drawing sometimes lack a comma ('540 0'): read numbers in pairs. */
function pointsOf(text: string): Point[] {
  const nums = text
    .trim()
    .split(/[\s,]+/)
    .filter((s) => s.length > 0)
    .map(Number);
  const out: Point[] = [];
  for (let i = 0; i + 1 < nums.length; i += 2) out.push({ x: nums[i]!, y: nums[i + 1]! });
  return out;
}

function pathOfPoints(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ') + ' Z';
}

interface Group {
  readonly title: string;
  readonly body: string;
}

function groups(svg: string): Group[] {
  const out: Group[] = [];
  const re = /<g title="([^"]+)">([\s\S]*?)<\/g>/g;
  for (let m = re.exec(svg); m; m = re.exec(svg)) out.push({ title: m[1]!, body: m[2]! });
  return out;
}

function entities(svg: string): Map<string, Point> {
  const out = new Map<string, Point>();
  const re = /<!ENTITY\s+(\S+)\s+"([^"]+)">/g;
  for (let m = re.exec(svg); m; m = re.exec(svg)) out.set(m[1]!, point(m[2]!));
  return out;
}

const entityName = (title: string): string => title.replace(/ /g, '_');

/**
 * Unit spots moved for fingers. On a phone the whole map is 390 px wide (0.64 px per map unit),
 * and a tap within 8 px of a unit must land nearer to it than to any other unit: so every two
 * spots of different provinces stand at least 27 map units (17 px) apart. The drawing's Clyde spot
 * also lay in the Atlantic. Each moved spot stays inside its province (tests/ui/map-hit.test.ts).
 */
export const FINGER_SPOTS: Readonly<Record<string, Point>> = {
  bel: { x: 195, y: 321 },
  cly: { x: 146, y: 185 },
  eng: { x: 110, y: 310 },
  hol: { x: 208, y: 292 },
  lon: { x: 163, y: 285 },
  sil: { x: 307, y: 311 },
  ven: { x: 255, y: 402 },
  yor: { x: 165, y: 257 },
};

/** Reads the drawing; returns art per province id, sorted by id. */
export function readAsalSvg(svg: string): Record<string, ProvinceArt> {
  const ents = entities(svg);
  // Only the province layer: the unit and centre layers at the end reuse titles without outlines.
  const shaped = groups(svg).filter((g) => /<(polygon|polyline|path)\b/.test(g.body));
  const idOfBase = new Map<string, string>();
  for (const g of shaped) {
    const label = /<text x="([\d.]+)" y="([\d.]+)">([^<]+)<\/text>/.exec(g.body);
    if (label) idOfBase.set(g.title.replace(/ \((nc|sc|ec)\)$/, ''), label[3]!.trim().toLowerCase());
  }
  const parts = new Map<string, { base: string; outline: Point[][]; paths: string[]; water: string[]; label?: Point }>();
  for (const g of shaped) {
    const base = g.title.replace(/ \((nc|sc|ec)\)$/, '');
    const id = idOfBase.get(base);
    if (!id) throw new Error(`no label for ${g.title}`);
    const entry = parts.get(id) ?? { base, outline: [], paths: [], water: [] };
    parts.set(id, entry);
    const label = /<text x="([\d.]+)" y="([\d.]+)">/.exec(g.body);
    if (label) entry.label = { x: Number(label[1]), y: Number(label[2]) };
    const shapeRe = /<(polygon|polyline|path) class="(\w)" (points|d)="([^"]*)"/g;
    for (let m = shapeRe.exec(g.body); m; m = shapeRe.exec(g.body)) {
      const [, tag, cls, , data] = m;
      if (tag === 'path') entry.paths.push(data!.trim());
      else if (tag === 'polyline')
        entry.outline.push(pointsOf(data!)); // half of a split-coast outline
      else if (cls === 'w' && entry.paths.length + entry.outline.length > 0) entry.water.push(pathOfPoints(pointsOf(data!)));
      else entry.paths.push(pathOfPoints(pointsOf(data!)));
    }
  }
  const out: Record<string, ProvinceArt> = {};
  for (const id of [...parts.keys()].sort()) {
    const e = parts.get(id)!;
    const name = entityName(e.base);
    // The halves of a split coast run end to start; joined they make the whole outline.
    const paths = e.outline.length > 0 ? [pathOfPoints(e.outline.flat())] : e.paths;
    const unit = FINGER_SPOTS[id] ?? ents.get(name);
    if (!unit || !e.label) throw new Error(`missing unit position or label for ${id}`);
    const centre = ents.get(`sc${name}`);
    const coasts: Record<string, Point> = {};
    for (const c of ['ec', 'nc', 'sc']) {
      const p = ents.get(`${name}__${c}`);
      if (p) coasts[c] = p;
    }
    out[id] = {
      paths,
      water: e.water,
      label: e.label,
      unit,
      ...(centre ? { centre } : {}),
      ...(Object.keys(coasts).length > 0 ? { coasts } : {}),
    };
  }
  return out;
}

const VIEWBOX = /viewBox="0 0 (\d+) (\d+)"/;

/** The TypeScript module text for src/ui/map/map-data.ts. */
export function mapDataModule(svg: string): string {
  const size = VIEWBOX.exec(svg);
  if (!size) throw new Error('no viewBox');
  const art = readAsalSvg(svg);
  const lines = Object.entries(art).map(([id, a]) => `  ${id}: ${JSON.stringify(a)},`);
  return [
    '// GENERATED by scripts/map-svg.ts from public/map/diplomacy-asal.svg; do not edit by hand.',
    `// ${ATTRIBUTION} (https://creativecommons.org/licenses/by-sa/3.0/de/).`,
    '// This file is a derived work of that drawing and is licensed CC BY-SA 3.0 DE as well.',
    "import type { ProvinceArt } from './art';",
    '',
    `export const MAP_WIDTH = ${size[1]};`,
    `export const MAP_HEIGHT = ${size[2]};`,
    '',
    'export const PROVINCE_ART: Readonly<Record<string, ProvinceArt>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SVG_PATH = join(root, 'public/map/diplomacy-asal.svg');
export const DATA_PATH = join(root, 'src/ui/map/map-data.ts');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DATA_PATH, mapDataModule(readFileSync(SVG_PATH, 'latin1')));
  console.log(`wrote ${DATA_PATH}`);
}
