import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layer table of the README ("Architecture"), checked on every source file: a layer imports only
// the layers the table allows, and the pure layers (rules, protocol, util) touch no DOM, clock,
// randomness or I/O. When the table changes, change it here and in the README together.

const root = resolve(__dirname, '../..');
const src = join(root, 'src');

/** Which top-level folders of src/ each layer may import (besides itself). */
const allowed: Record<string, readonly string[]> = {
  rules: [],
  util: [],
  protocol: ['rules'],
  net: ['protocol', 'rules', 'util'],
  store: ['protocol', 'rules', 'util'],
  cli: ['rules', 'util'],
  ui: ['rules', 'protocol', 'net', 'store', 'util'],
};

/** Packages a layer may import; anything else from node_modules or node: is refused. */
const packages: Record<string, readonly string[]> = {
  rules: [],
  util: [],
  protocol: ['tweetnacl', '@noble/curves', '@noble/hashes'],
  net: ['*'],
  store: ['*'],
  cli: ['node:'],
  ui: ['*'],
};

/** Globals that mean the clock, randomness, the DOM or I/O; the pure layers must not name them. */
const impure = [
  /\bDate\.now\s*\(/,
  /\bnew Date\s*\(\s*\)/,
  /\bperformance\.now\s*\(/,
  /\bMath\.random\s*\(/,
  /\bcrypto\.getRandomValues\s*\(/,
  /\brandomBytes\s*\(/,
  /\bwindow\./,
  /\bdocument\./,
  /\bindexedDB\b/,
  /\blocalStorage\b/,
  /\bfetch\s*\(/,
  /\bsetTimeout\s*\(/,
  /\bsetInterval\s*\(/,
  /\bprocess\./,
];
const pure = ['rules', 'protocol', 'util'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Strips comments so that prose about `Date.now()` or an example import does not count. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function imports(text: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

export function layerOf(file: string): string {
  return relative(src, file).split(/[\\/]/)[0]!;
}

/** Every broken rule of one file, as readable lines. */
export function violations(file: string, text: string): string[] {
  const layer = layerOf(file);
  const body = code(text);
  const out: string[] = [];
  for (const spec of imports(body)) {
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src)) {
        out.push(`${relative(root, file)} imports ${spec}, outside src/`);
        continue;
      }
      const to = layerOf(target);
      if (to !== layer && !(allowed[layer] ?? []).includes(to)) {
        out.push(`${relative(root, file)} (${layer}) imports ${spec} (${to})`);
      }
    } else {
      const ok = packages[layer] ?? [];
      const fine = ok.includes('*') || ok.some((p) => spec === p || spec.startsWith(p.endsWith(':') ? p : `${p}/`));
      if (!fine) out.push(`${relative(root, file)} (${layer}) imports the package ${spec}`);
    }
  }
  if (pure.includes(layer)) {
    for (const re of impure) {
      if (re.test(body)) out.push(`${relative(root, file)} (${layer}, pure) uses ${re.source}`);
    }
  }
  return out;
}

describe('layers', () => {
  const all = files(src);

  it('every folder of src/ has a row in the table', () => {
    const layers = new Set(all.map(layerOf));
    expect([...layers].filter((l) => !(l in allowed))).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });

  it('no layer imports a layer above it, and the pure layers touch no clock, randomness, DOM or I/O', () => {
    const found = all.flatMap((f) => violations(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check itself catches each kind of breach', () => {
    const at = (p: string) => join(src, p);
    expect(violations(at('rules/x.ts'), "import { a } from '../protocol/y';")).toHaveLength(1);
    expect(violations(at('protocol/x.ts'), "import { a } from '../net';")).toHaveLength(1);
    expect(violations(at('protocol/x.ts'), "import * as Y from 'yjs';")).toHaveLength(1);
    expect(violations(at('protocol/x.ts'), 'export const t = () => Date.now();')).toHaveLength(1);
    expect(violations(at('rules/x.ts'), 'const r = Math.random();')).toHaveLength(1);
    expect(violations(at('store/x.ts'), "import { a } from '../ui/y';")).toHaveLength(1);
    expect(violations(at('protocol/x.ts'), "const m = await import('../store/z');")).toHaveLength(1);
    // What is allowed stays allowed, and comments are not code.
    expect(violations(at('protocol/x.ts'), "import { a } from '../rules/y';\n// Date.now() is the caller's")).toEqual([]);
    expect(violations(at('ui/x.tsx'), "import { a } from '../net/y';")).toEqual([]);
  });
});
