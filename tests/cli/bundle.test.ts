// The `pacto` command runs a bundle of src/cli and the rules engine (bin/bundle.mjs). These tests
// hold it to the sources: the bundle the command runs is byte for byte what a build of the current
// sources makes, it prints what the sources print on seeded random games, and any change to an
// input makes it stale. (tests/cli/cli.test.ts and readme.test.ts run against it too;
// tests/e2e/cli-command.test.ts runs the command itself.)
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE, ROOT, buildBundle, bundleStatus, type Main } from '../../bin/bundle.mjs';
import { canonicalOrder, positionToJson } from '../../src/cli/json';
import { main as sourceMain } from '../../src/cli/main';
import { POWERS, STARTING_POSITION, adjudicate, randomOrders, type Order, type Position } from '../../src/rules';
import { picker } from '../../src/util/prng';
import { bundleMain } from './clis';

const dir = mkdtempSync(join(tmpdir(), 'pacto-bundle-'));

async function run(main: Main, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(
    argv,
    (s) => (out += s + '\n'),
    (s) => (err += s + '\n'),
  );
  return { code, out, err };
}

it('the bundle the command runs is what the build makes from the current sources', async () => {
  // clis.ts loaded it as bin/pacto.mjs does, rebuilding it if a source had changed.
  expect(bundleStatus(DEFAULT_BUNDLE)).toEqual({ state: 'fresh' });
  const { code } = await buildBundle({ write: false });
  expect(code.length).toBeGreaterThan(10_000);
  expect(readFileSync(DEFAULT_BUNDLE, 'utf8') === code, 'the bundle differs from a build of the current sources').toBe(true);
});

/** `count` phases of a seeded random game from Spring 1901: movement, retreats and adjustments. */
function randomGame(seed: number, count: number): { position: Position; orders: Order[] }[] {
  const pick = picker(seed);
  const phases: { position: Position; orders: Order[] }[] = [];
  let position: Position = STARTING_POSITION;
  while (phases.length < count) {
    const orders = POWERS.flatMap((p) => randomOrders(position, p, pick));
    phases.push({ position, orders });
    position = adjudicate(position, orders).next;
  }
  return phases;
}

describe('the bundle and the sources print the same', () => {
  for (const seed of [17, 1901, 20_250]) {
    it(`on every phase of seeded random game ${seed}`, async () => {
      const kinds = new Set<string>();
      for (const [i, { position, orders }] of randomGame(seed, 14).entries()) {
        kinds.add(position.phase.kind);
        const doc = {
          ...positionToJson(position),
          orders: Object.fromEntries(POWERS.map((p) => [p, orders.filter((o) => o.power === p).map(canonicalOrder)])),
        };
        const file = join(dir, `game-${seed}-${i}.json`);
        writeFileSync(file, JSON.stringify(doc));
        for (const argv of [
          ['adjudicate', file, '--json'],
          ['adjudicate', file, '--lang', 'es'],
          ['adjudicate', file, '--lang', 'en'],
        ]) {
          const fromSources = await run(sourceMain, argv);
          const fromBundle = await run(bundleMain, argv);
          expect(fromSources.code, fromSources.err).toBe(0);
          expect(fromBundle).toEqual(fromSources);
          if (argv.includes('--json')) expect(JSON.parse(fromBundle.out).results).toHaveLength(adjudicate(position, orders).results.length);
        }
      }
      expect([...kinds], 'the game reached adjustments').toEqual(expect.arrayContaining(['movement', 'adjustment']));
    });
  }
});

describe('freshness', () => {
  // A copy of everything the build reads, so the test can change sources without touching the repo.
  function copyRoot(): string {
    const root = mkdtempSync(join(tmpdir(), 'pacto-root-'));
    for (const path of ['src/cli', 'src/rules', 'bin/bundle.mjs', 'tsconfig.json', 'package.json'])
      cpSync(join(ROOT, path), join(root, path), { recursive: true });
    return root;
  }

  it('a bundle built from changed sources runs the change', async () => {
    const root = copyRoot();
    const main = join(root, 'src/cli/main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('print the starting position', 'print the very first position'));
    const outfile = join(root, 'out', 'cli.cjs');
    await buildBundle({ root, outfile });
    const changed = createRequire(import.meta.url)(outfile).main as Main;
    const r = await run(changed, ['help']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('print the very first position');
    rmSync(root, { recursive: true, force: true });
  });

  it('a changed, re-dated, added or removed input, or a changed build setting, makes the bundle stale', async () => {
    const root = copyRoot();
    const outfile = join(root, 'out', 'cli.cjs');
    const rebuild = async () => {
      await buildBundle({ root, outfile });
      expect(bundleStatus(outfile, root)).toEqual({ state: 'fresh' });
    };
    expect(bundleStatus(outfile, root).state).toBe('missing');
    await rebuild();

    const map = join(root, 'src/rules/map.ts');
    writeFileSync(map, readFileSync(map, 'utf8') + '\n// an edit\n');
    expect(bundleStatus(outfile, root)).toEqual({ state: 'stale', reason: 'src/rules/map.ts changed' });
    await rebuild();

    // Same bytes, older date (a checkout or a copy that keeps dates): stale as well.
    utimesSync(map, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(bundleStatus(outfile, root)).toEqual({ state: 'stale', reason: 'src/rules/map.ts changed' });
    await rebuild();

    // A file beside the sources could change what an import resolves to.
    writeFileSync(join(root, 'src/rules/movement/extra.ts'), 'export {};\n');
    expect(bundleStatus(outfile, root)).toEqual({ state: 'stale', reason: 'src/rules/movement/ gained or lost a file' });
    await rebuild();

    writeFileSync(join(root, 'tsconfig.json'), readFileSync(join(root, 'tsconfig.json'), 'utf8') + '\n');
    expect(bundleStatus(outfile, root)).toEqual({ state: 'stale', reason: 'tsconfig.json changed' });
    await rebuild();

    rmSync(join(root, 'src/rules/explain.ts'));
    expect(bundleStatus(outfile, root)).toMatchObject({ state: 'stale' });

    writeFileSync(outfile, readFileSync(outfile, 'utf8').replace('// pacto-cli-bundle ', '// '));
    expect(bundleStatus(outfile, root)).toEqual({ state: 'stale', reason: 'the bundle has no stamp' });
    rmSync(root, { recursive: true, force: true });
  });
});
