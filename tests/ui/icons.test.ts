// The app's icons: the manifest (vite.config.ts takes its icons from scripts/icons.ts) offers PNGs
// (192, 512, maskable) besides the SVG, index.html names an apple-touch-icon, and every file named
// exists with the size it claims (read from the PNG header). The built manifest is checked in
// tests/e2e/ui-check.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICONS, MANIFEST_ICONS } from '../../scripts/icons';

const pub = (f: string) => join(process.cwd(), 'public', f);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('icons', () => {
  it('the manifest has 192 and 512 px PNGs and a maskable one, each the size it says', () => {
    const icons = MANIFEST_ICONS;
    const pngs = icons.filter((i) => i.type === 'image/png');
    expect(pngs.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512', '512x512']);
    expect(pngs.some((i) => i.purpose?.split(' ').includes('maskable'))).toBe(true);
    for (const i of pngs) {
      const { width, height } = pngSize(pub(i.src));
      expect(`${width}x${height}`, i.src).toBe(i.sizes);
    }
  });

  it('index.html names a 180 px apple-touch-icon that exists, and every rendered icon is on disk', () => {
    const html = readFileSync(join(process.cwd(), 'index.html'), 'utf8');
    const m = /<link rel="apple-touch-icon" href="\/([^"]+)"/.exec(html);
    expect(m).not.toBeNull();
    expect(pngSize(pub(m![1]!))).toEqual({ width: 180, height: 180 });
    for (const spec of ICONS) expect(pngSize(pub(spec.file))).toEqual({ width: spec.size, height: spec.size });
  });
});
