// The `pacto` command as people run it: `node bin/pacto.mjs`, a phase on standard input. It runs
// the bundle of the current sources (bin/bundle.mjs); a missing, stale or broken bundle is rebuilt
// before anything runs, first runs started together all succeed, and without a bundle it can write
// the command still works, through tsx. PACTO_CLI_TRACE makes the command say which way it ran.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE, ROOT, buildBundle, bundleStatus, loadCli } from '../../bin/bundle.mjs';
import { main as sourceMain } from '../../src/cli/main';
import { readmeExample } from '../cli/readme-example';

const BIN = join(ROOT, 'bin', 'pacto.mjs');
const { input: README_INPUT, output: README_OUTPUT } = readmeExample();
const SHEET = 'Inglaterra: F Lon-MNt, F Edi-MNo, E Liv-Yor\nFrance: A Par - Bur; A Mar S A Par - Bur\nGermany: A Mun - Bur\n';

interface Trace {
  via: 'bundle' | 'built' | 'tsx';
  reason?: string;
  started: number;
  load: number;
  run: number;
}
interface Ran {
  code: number | null;
  out: string;
  err: string;
  trace: Trace;
}

/** Runs the command as `node bin/pacto.mjs ...`, or as an executable `command` (a link to it). */
function pacto(args: readonly string[], stdin: string, env: Record<string, string> = {}, command?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const options = { env: { ...process.env, PACTO_CLI_TRACE: '1', ...env } };
    const child = command ? spawn(command, args, options) : spawn(process.execPath, [BIN, ...args], options);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = err.split('\n');
      const at = lines.findIndex((l) => l.startsWith('pacto-cli '));
      if (at < 0) return reject(new Error(`no trace from pacto (exit ${code}): ${err}`));
      const trace = JSON.parse(lines[at]!.slice('pacto-cli '.length)) as Trace;
      lines.splice(at, 1);
      resolve({ code, out, err: lines.join('\n'), trace });
    });
    child.stdin.end(stdin);
  });
}

async function fromSources(args: readonly string[], stdin: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'pacto-src-')), 'in.txt');
  writeFileSync(file, stdin);
  let out = '';
  expect(await sourceMain(['adjudicate', file, ...args], (s) => (out += s + '\n'))).toBe(0);
  return out;
}

beforeAll(async () => {
  // What `npm install` (prepare) or the first run leaves: a bundle of the current sources.
  expect((await loadCli({ bundle: DEFAULT_BUNDLE })).via).not.toBe('tsx');
}, 60_000);

describe('pacto adjudicate, from standard input', () => {
  it('runs the bundle and prints the README example', async () => {
    const r = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.trace.via).toBe('bundle');
    expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
  });

  it('prints an order sheet as the sources do, in both languages', async () => {
    for (const lang of ['es', 'en']) {
      const r = await pacto(['adjudicate', '-', '--lang', lang], SHEET);
      expect(r.code).toBe(0);
      expect(r.trace.via).toBe('bundle');
      expect(r.out).toBe(await fromSources(['--lang', lang], SHEET));
      expect(r.out).toContain(lang === 'es' ? 'Otoño 1901' : 'Fall 1901');
    }
  });

  it('runs the same through a link to the command, as npm links it into a .bin folder', async () => {
    const link = join(mkdtempSync(join(tmpdir(), 'pacto-link-')), 'pacto');
    symlinkSync(BIN, link);
    const r = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), {}, link);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.trace.via).toBe('bundle');
    expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
  });

  it('refuses bad input with exit code 2 and a message', async () => {
    const r = await pacto(['adjudicate'], 'England: A Xyzzy - Bel\n');
    expect(r.trace.via).toBe('bundle');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^pacto: line 1: "A Xyzzy - Bel"/);
    expect(r.out).toBe('');
  });
});

describe('the bundle the command runs', () => {
  it('first runs started together each succeed, and leave one whole bundle of the current sources', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pacto-first-'));
    const bundle = join(dir, 'cache', 'cli.cjs');
    const runs = await Promise.all([1, 2, 3].map(() => pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), { PACTO_CLI_BUNDLE: bundle })));
    for (const r of runs) {
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(['built', 'bundle']).toContain(r.trace.via);
      expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
    }
    expect(runs.map((r) => r.trace.via)).toContain('built');
    expect(readdirSync(join(dir, 'cache'))).toEqual(['cli.cjs']);
    expect(bundleStatus(bundle)).toEqual({ state: 'fresh' });
    expect(readFileSync(bundle, 'utf8') === (await buildBundle({ write: false })).code).toBe(true);
    const again = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), { PACTO_CLI_BUNDLE: bundle });
    expect(again.trace.via).toBe('bundle');
  });

  it('a stale bundle is rebuilt before it runs', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'pacto-stale-')), 'cli.cjs');
    // A bundle of older sources, made obvious: were it run, it would exit with 99.
    const stampLine = readFileSync(DEFAULT_BUNDLE, 'utf8').split('\n')[0]!;
    const stamp = JSON.parse(stampLine.slice('// pacto-cli-bundle '.length)) as { files: Record<string, [number, number]> };
    stamp.files['src/cli/main.ts']![1] -= 60_000;
    writeFileSync(bundle, `// pacto-cli-bundle ${JSON.stringify(stamp)}\nmodule.exports = { main: async () => 99 };\n`);
    expect(bundleStatus(bundle)).toEqual({ state: 'stale', reason: 'src/cli/main.ts changed' });
    const r = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), { PACTO_CLI_BUNDLE: bundle });
    expect(r.trace).toMatchObject({ via: 'built', reason: 'src/cli/main.ts changed' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
    expect(bundleStatus(bundle)).toEqual({ state: 'fresh' });
  });

  it('a bundle that does not load is rebuilt', async () => {
    const bundle = join(mkdtempSync(join(tmpdir(), 'pacto-broken-')), 'cli.cjs');
    await buildBundle({ outfile: bundle });
    const stampLine = readFileSync(bundle, 'utf8').split('\n')[0]!;
    writeFileSync(bundle, `${stampLine}\nthis is not JavaScript (\n`);
    expect(bundleStatus(bundle)).toEqual({ state: 'fresh' });
    const r = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), { PACTO_CLI_BUNDLE: bundle });
    expect(r.trace.via).toBe('built');
    expect(r.trace.reason).toMatch(/^the bundle did not load/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
  });

  it('without a bundle it can write (a read-only install), or with bundling off, it runs the sources through tsx', async () => {
    for (const setting of ['/dev/null/pacto/cli.cjs', 'off']) {
      const r = await pacto(['adjudicate', '--json'], JSON.stringify(README_INPUT), { PACTO_CLI_BUNDLE: setting });
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.trace.via).toBe('tsx');
      expect(JSON.parse(r.out)).toEqual(README_OUTPUT);
    }
  });
});
