// Renders the app's PNG icons from public/icon.svg with Debian's Chromium (the one the browser
// tests use), for the places an SVG icon is not enough: Android's install prompt and home screen
// (192 and 512 px), a maskable icon whose drawing stays inside the launcher's safe circle, and
// iOS's apple-touch-icon (180 px, opaque: iOS rounds the corners itself). Run after changing the SVG:
//   npx tsx scripts/icons.ts
// tests/ui/icons.test.ts checks the files and sizes the manifest and index.html name.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ICON_SVG = join(root, 'public/icon.svg');
/** The icon's background colour, painted edge to edge behind the opaque icons. */
export const ICON_BACKGROUND = '#1d3557';

export interface IconSpec {
  readonly file: string;
  readonly size: number;
  /** 'any': the drawing as it is; 'full': opaque square, drawing scaled by `inset` inside it. */
  readonly kind: 'any' | 'full';
  readonly inset?: number;
}

export const ICONS: readonly IconSpec[] = [
  { file: 'icon-192.png', size: 192, kind: 'any' },
  { file: 'icon-512.png', size: 512, kind: 'any' },
  // Launchers crop maskable icons to shapes as small as a circle of 80% of the side.
  { file: 'icon-maskable-512.png', size: 512, kind: 'full', inset: 0.8 },
  { file: 'apple-touch-icon.png', size: 180, kind: 'full', inset: 0.9 },
];

/** The manifest's icons (vite.config.ts): the SVG for browsers that take it, the PNGs for install prompts. */
export const MANIFEST_ICONS = [
  { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: 'icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

function page(svg: string, spec: IconSpec): string {
  const inner = spec.kind === 'any' ? 1 : (spec.inset ?? 1);
  const px = Math.round(spec.size * inner);
  const background = spec.kind === 'full' ? ICON_BACKGROUND : 'transparent';
  const img = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return `<!doctype html><html><body style="margin:0;background:${background};width:${spec.size}px;height:${spec.size}px;display:grid;place-items:center"><img src="${img}" width="${px}" height="${px}"></body></html>`;
}

export async function renderIcons(outDir = join(root, 'public')): Promise<void> {
  const svg = readFileSync(ICON_SVG, 'utf8');
  const { launchChromium } = await import('../tests/e2e/browser');
  const browser = await launchChromium();
  try {
    for (const spec of ICONS) {
      const p = await browser.newPage({ viewport: { width: spec.size, height: spec.size }, deviceScaleFactor: 1 });
      await p.setContent(page(svg, spec));
      await p.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
      await p.screenshot({ path: join(outDir, spec.file), omitBackground: spec.kind === 'any' });
      await p.close();
    }
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void renderIcons().then(() => console.log(`wrote ${ICONS.map((i) => i.file).join(', ')} in public/`));
}
