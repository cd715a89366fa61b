import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIS } from './clis';

const dir = mkdtempSync(join(tmpdir(), 'pacto-cli-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

// Every test runs against the TypeScript sources and against the bundle the `pacto` command runs.
describe.each(CLIS)('pacto adjudicate (%s)', (_name, main) => {
  async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(
      argv,
      (s) => (out += s + '\n'),
      (s) => (err += s + '\n'),
    );
    return { code, out, err };
  }

  it('reads a Spanish order sheet from the rulebook and prints results and the next position', async () => {
    const sheet = file('s1901.txt', 'Francia: E Par–Bor, E Mar–Bor, F Bre–Pic\nAlemania: E Mun–Bor\n');
    const { code, out } = await run('adjudicate', sheet, '--lang', 'es');
    expect(code).toBe(0);
    expect(out).toMatch(/E Par-Bor\s+fracasa: rebota con/);
    expect(out).toMatch(/F Bre-Pic\s+con éxito/);
    expect(out).toContain('Otoño 1901');
  });

  it('speaks the documented JSON interface', async () => {
    const input = file(
      'retreat.json',
      JSON.stringify({
        phase: 'spring 1901 movement',
        units: { france: ['A par', 'A bur'], germany: ['A mun', 'A ruh', 'F kie'] },
        centres: { france: ['par'], germany: ['mun', 'kie'] },
        orders: { germany: ['A mun - bur', 'A ruh S A mun - bur', 'F kie - hol'], france: ['A par H', 'A bur H'] },
      }),
    );
    const { code, out } = await run('adjudicate', input, '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.phase).toEqual({ year: 1901, season: 'spring', kind: 'movement' });
    expect(doc.results).toContainEqual({ power: 'germany', order: 'A mun - bur', success: true });
    expect(doc.results.find((r: { order: string }) => r.order === 'A bur H')).toMatchObject({ success: false, reason: { kind: 'dislodged', by: 'mun' } });
    expect(doc.dislodged).toEqual([{ unit: 'A bur', power: 'france', attackerFrom: 'mun', retreats: ['bel', 'gas', 'mar', 'pic'] }]);
    expect(doc.next.phase).toEqual({ year: 1901, season: 'spring', kind: 'retreat' });
    expect(doc.next.units.germany).toEqual(['A bur', 'F hol', 'A ruh']);
    expect(doc.next.dislodged).toHaveLength(1);
  });

  it('continues from a retreat position given as JSON', async () => {
    const pos = file(
      'pos.json',
      JSON.stringify({
        phase: { year: 1901, season: 'fall', kind: 'retreat' },
        units: { france: ['A par'], germany: ['A bur'] },
        centres: { france: ['par', 'mar'], germany: ['mun'] },
        dislodged: [{ unit: 'A mar', power: 'france', attackerFrom: 'bur', retreats: ['gas', 'pie', 'spa'] }],
      }),
    );
    const orders = file('orders.txt', 'France: A mar R gas\n');
    const { code, out } = await run('adjudicate', orders, '--position', pos, '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.results).toEqual([{ power: 'france', order: 'A mar R gas', success: true }]);
    expect(doc.next.units.france).toEqual(['A gas', 'A par']);
    expect(doc.next.phase.season === 'winter' || doc.next.phase.year === 1902).toBe(true);
  });

  it('rejects bad input with a clear message and exit code 2', async () => {
    const bad = file('bad.json', JSON.stringify({ units: { narnia: ['A par'] } }));
    const r1 = await run('adjudicate', bad);
    expect(r1.code).toBe(2);
    expect(r1.err).toContain('"narnia" is not a power');
    const r2 = await run('adjudicate', file('bad2.txt', 'England: A Xyzzy - Bel\n'));
    expect(r2.code).toBe(2);
    expect(r2.err).toMatch(/line 1/);
    const r3 = await run('adjudicate', file('bad3.json', '{"units": {"england": ["A qqq"]}}'));
    expect(r3.err).toContain('"qqq" is not a place');
  });

  it('reads back the orders it prints (issue 14: F nth S F swe - den was "ambiguous")', async () => {
    const pos = file(
      'north.json',
      JSON.stringify({
        phase: 'spring 1901 movement',
        units: { england: ['F nth'], russia: ['F swe'], germany: ['F den'] },
        centres: { england: ['lon'], russia: ['stp'], germany: ['kie'] },
      }),
    );
    const sheet = file('north.txt', 'England: F nth S F swe - den\nRussia: F swe - den\n');
    const first = await run('adjudicate', sheet, '--position', pos, '--json');
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const results = JSON.parse(first.out).results as { power: string; order: string }[];
    expect(results).toContainEqual({ power: 'germany', order: 'F den H', success: false, reason: { kind: 'dislodged', by: 'swe' } });
    // The orders as it printed them, in both languages, parse again to the same results.
    for (const lang of ['en', 'es']) {
      const printed = await run('adjudicate', sheet, '--position', pos, '--lang', lang);
      expect(printed.code).toBe(0);
      const lines = printed.out
        .split('\n')
        .filter((l) => /^\s*F /.test(l))
        .map((l) => l.trim().split(/\s{2,}/)[0]!);
      expect(lines).toContain(lang === 'en' ? 'F NTH S F Swe - Den' : 'F MNt A F Sue-Din');
      const again = file(
        `north-${lang}.txt`,
        `${lang === 'en' ? 'England' : 'Inglaterra'}: ${lines.find((l) => l.startsWith('F NTH') || l.startsWith('F MNt'))}\nRussia: F swe - den\n`,
      );
      const second = await run('adjudicate', again, '--position', pos, '--json', '--lang', lang);
      expect(second.err).toBe('');
      expect(JSON.parse(second.out).results).toEqual(results);
    }
  });

  it('prints the starting position', async () => {
    const { code, out } = await run('start', '--json');
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.units.russia).toEqual(['A mos', 'F sev', 'F stp/sc', 'A war']);
    expect(Object.values(doc.centres).flat()).toHaveLength(22);
  });
});
