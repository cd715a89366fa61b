// The home screen's first load (issue 17): the production build's entry chunk, and every chunk it
// imports statically, carry React, the store's IndexedDB reads and the home screen only. The
// identity's cryptography, the protocol and the rules engine, Yjs and the network, the map and QR
// codes come in chunks loaded on demand, and the service worker still precaches every chunk, so
// the app opens offline. Built for real with vite.config.ts; the modules of each chunk are read
// from the bundler's own output.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { build, type Plugin } from 'vite';

interface Chunk {
  readonly isEntry: boolean;
  readonly imports: readonly string[];
  readonly modules: readonly string[];
}

const outDir = mkdtempSync(join(tmpdir(), 'pacto-home-chunk-'));
const chunks = new Map<string, Chunk>();

/** Records, for the app's build (not the service worker's), each chunk's static imports and modules. */
const recordChunks: Plugin = {
  name: 'record-chunks',
  generateBundle(_options, bundle) {
    for (const [file, out] of Object.entries(bundle)) {
      if (out.type !== 'chunk' || !file.startsWith('assets/')) continue;
      const modules = Object.keys(out.modules).map((id) => relative(process.cwd(), id.replace(/^\0/, '')).split(sep).join('/'));
      chunks.set(file, { isEntry: out.isEntry, imports: out.imports, modules });
    }
  },
};

beforeAll(async () => {
  await build({ logLevel: 'error', plugins: [recordChunks], build: { outDir, emptyOutDir: true } });
}, 180_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The entry chunk and everything it imports statically: what the home screen loads before it renders. */
function firstLoad(): Set<string> {
  const entries = [...chunks].filter(([, c]) => c.isEntry).map(([f]) => f);
  expect(entries, 'one entry chunk').toHaveLength(1);
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of chunks.get(file)?.imports ?? []) visit(i);
  };
  visit(entries[0]!);
  return seen;
}

/** Modules the home screen does not need before it shows the games list. */
const NOT_ON_FIRST_LOAD = [
  /(^|\/)node_modules\/(yjs|y-webrtc|y-protocols|lib0|simple-peer|tweetnacl|@noble|qrcode|jsqr)\//,
  /^src\/(protocol|net)\//,
  // The rules' types module holds only names (POWERS), for the seat labels; variants/names.ts only
  // the variants' names, for the games list.
  /^src\/rules\/(?!types\.ts$|variants\/names\.ts$)/,
  /^src\/ui\/(map|orders|practice)\//,
  /^src\/ui\/game\/(device|live|core|runner|GamePage)\.tsx?$/,
];

it('the first load carries React, the store and the home screen, and none of the rest', () => {
  const first = firstLoad();
  const modules = [...first].flatMap((f) => chunks.get(f)!.modules);
  expect(modules).toEqual(expect.arrayContaining(['src/ui/home/Home.tsx', 'src/store/open.ts']));
  // Each game's variant name shows with the list, not a moment later once the rules engine loads.
  expect(modules).toContain('src/rules/variants/names.ts');
  expect(modules.some((m) => /(^|\/)node_modules\/react-dom\//.test(m))).toBe(true);
  const misplaced = modules.filter((m) => NOT_ON_FIRST_LOAD.some((r) => r.test(m)));
  expect(misplaced, `in the first load: ${[...first].join(', ')}`).toEqual([]);
  // The rest is still in the build, loaded on demand.
  const all = [...chunks.values()].flatMap((c) => c.modules);
  for (const m of [
    /(^|\/)node_modules\/yjs\/dist\/yjs\.mjs$/,
    /^src\/ui\/game\/device\.ts$/,
    /^src\/ui\/practice\/PracticeBoard\.tsx$/,
    /^src\/rules\/index\.ts$/,
  ])
    expect(
      all.some((id) => m.test(id)),
      String(m),
    ).toBe(true);
});

it('the service worker precaches every chunk, so the app still opens offline', () => {
  const sw = readFileSync(join(outDir, 'sw.js'), 'utf8');
  // It is registered as a classic script: one import() or import.meta (vite's preload helper wraps
  // every dynamic import in code that uses it) and it fails to evaluate, and nothing is cached.
  expect(sw).not.toMatch(/\bimport\s*\(|\bimport\.meta\b/);
  const assets = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  expect(assets.length).toBeGreaterThan(chunks.size - 1);
  const missing = assets.filter((f) => !sw.includes(`assets/${f}`));
  expect(missing).toEqual([]);
});
