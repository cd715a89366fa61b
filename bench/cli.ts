// The command line's start-up: `pacto adjudicate` on one phase (every unit of Spring 1901 ordered)
// from standard input, wall time from spawning the process to its exit. Target: median < 200 ms.
// Also: node's own start-up, where the command's time goes (its PACTO_CLI_TRACE report), the first
// run that builds the bundle, the tsx path the command falls back to, and `npx pacto` (npm's own
// start-up comes on top; for information).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BUNDLE, ROOT, loadCli } from '../bin/bundle.mjs';
import { report, summarise } from './report';

const TARGET_MS = 200;
const RUNS = 21;
const BIN = join(ROOT, 'bin', 'pacto.mjs');
const PHASE = [
  'Austria: A Vie - Gal, A Bud - Ser, F Tri - Alb',
  'England: F Lon - NTH, F Edi - NWG, A Lvp - Yor',
  'France: A Par - Bur, A Mar S A Par - Bur, F Bre - MAO',
  'Germany: A Ber - Kie, A Mun - Ruh, F Kie - Hol',
  'Italy: A Ven H, A Rom - Apu, F Nap - ION',
  'Russia: A Mos - Ukr, A War - Gal, F Sev - BLA, F StP/SC - Bot',
  'Turkey: A Con - Bul, A Smy - Con, F Ank - BLA',
].join('\n');

interface Trace {
  via: string;
  started: number;
  load: number;
  run: number;
  cpu: number;
}

/** One run of `command`, the phase on standard input: wall milliseconds and the command's trace. */
function once(command: string, args: readonly string[], env: Record<string, string> = {}): { ms: number; trace?: Trace } {
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, input: PHASE, env: { ...process.env, PACTO_CLI_TRACE: '1', ...env }, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0 || !r.stdout.includes('Spring 1901')) throw new Error(`bench: ${command} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const line = r.stderr.split('\n').find((l) => l.startsWith('pacto-cli '));
  return { ms, ...(line ? { trace: JSON.parse(line.slice('pacto-cli '.length)) as Trace } : {}) };
}

function runs(n: number, run: () => { ms: number; trace?: Trace }): { ms: number[]; traces: Trace[] } {
  const ms: number[] = [];
  const traces: Trace[] = [];
  for (let i = 0; i < n; i++) {
    const r = run();
    ms.push(r.ms);
    if (r.trace) traces.push(r.trace);
  }
  return { ms, traces };
}

/** Node alone: a one-line script that reports the processor time node used to reach it. */
function nodeAlone(): { ms: number; cpu: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['-e', 'const { user, system } = process.cpuUsage(); process.stdout.write(String((user + system) / 1000))'], {
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: node -e failed: ${r.stderr}`);
  return { ms, cpu: Number(r.stdout) };
}

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const median = (xs: readonly number[]) => summarise(xs).median;

export async function benchCli(): Promise<void> {
  const loaded = await loadCli({ bundle: DEFAULT_BUNDLE });
  if (loaded.via === 'tsx') throw new Error(`bench: the command line could not be bundled: ${loaded.reason}`);
  once(process.execPath, [BIN, 'adjudicate']); // warm the file cache

  const node = Array.from({ length: RUNS }, nodeAlone);
  const pacto = runs(RUNS, () => once(process.execPath, [BIN, 'adjudicate']));
  const vias = new Set(pacto.traces.map((t) => t.via));
  if (vias.size !== 1 || !vias.has('bundle')) throw new Error(`bench: expected every run from the bundle, got ${[...vias].join(', ')}`);
  const s = summarise(pacto.ms);
  const part = (k: 'started' | 'load' | 'run' | 'cpu') => median(pacto.traces.map((t) => t[k]));

  const first = runs(3, () => {
    const dir = mkdtempSync(join(tmpdir(), 'pacto-bench-'));
    try {
      return once(process.execPath, [BIN, 'adjudicate'], { PACTO_CLI_BUNDLE: join(dir, 'cli.cjs') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const tsx = runs(5, () => once(process.execPath, [BIN, 'adjudicate'], { PACTO_CLI_BUNDLE: 'off' }));
  const npx = runs(5, () => once('npx', ['pacto', 'adjudicate']));

  report(`cli: pacto adjudicate, one phase (22 orders) from stdin, wall time`, [
    [`node bin/pacto.mjs adjudicate (median of ${RUNS} runs)`, fmt(s.median)],
    ['  fastest / p95', `${fmt(Math.min(...pacto.ms))} / ${fmt(s.p95)}`],
    ['  target median', `< ${TARGET_MS} ms`],
    ['  median / target', (s.median / TARGET_MS).toFixed(2)],
    [`node alone, a one-line node -e (median of ${RUNS})`, fmt(median(node.map((n) => n.ms)))],
    ['processor time (user + system): the command / node alone', `${fmt(part('cpu'))} / ${fmt(median(node.map((n) => n.cpu)))}`],
    ['where the time goes (medians):', ''],
    ['  process start to bin/pacto.mjs running', fmt(part('started'))],
    ['  check the bundle is current and load it', fmt(part('load'))],
    ['  read, parse, adjudicate, print', fmt(part('run'))],
    ['  spawn, exec and exit (the rest; node alone pays it too)', fmt(s.median - part('started') - part('load') - part('run'))],
    ['first run, building the bundle (median of 3)', fmt(median(first.ms))],
    ['through tsx, no bundle (median of 5)', fmt(median(tsx.ms))],
    ['npx pacto adjudicate (median of 5; for information)', fmt(median(npx.ms))],
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCli();
