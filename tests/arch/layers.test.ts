import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layer table of the README ("Architecture"), checked on every source file: a layer imports only
// the layers the table allows, and the pure layers (rules, protocol, util, games) touch no DOM, clock,
// randomness or I/O. When the table changes, change it here and in the README together.

const root = resolve(__dirname, '../..');
const src = join(root, 'src');

/** Which top-level folders of src/ each layer may import (besides itself). */
const allowed: Record<string, readonly string[]> = {
  rules: [],
  util: [],
  games: ['util'],
  protocol: ['rules'],
  net: ['protocol', 'rules', 'util'],
  store: ['protocol', 'rules', 'util'],
  cli: ['rules', 'util'],
  ui: ['rules', 'protocol', 'net', 'store', 'util'],
  server: ['net', 'protocol', 'rules', 'util'],
};

/** Packages a layer may import; anything else from node_modules or node: is refused. */
const packages: Record<string, readonly string[]> = {
  rules: [],
  util: [],
  games: [],
  protocol: ['tweetnacl', '@noble/curves', '@noble/hashes'],
  net: ['*'],
  store: ['*'],
  cli: ['node:'],
  ui: ['*'],
  server: ['*'],
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
const pure = ['rules', 'protocol', 'util', 'games'];

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
    expect(violations(at('games/pog/x.ts'), 'const r = Math.random();')).toHaveLength(1);
    expect(violations(at('games/pog/x.ts'), "import { a } from '../../rules/y';")).toHaveLength(1);
    expect(violations(at('games/pog/x.ts'), "import { a } from '../../util/prng';")).toEqual([]);
    expect(violations(at('store/x.ts'), "import { a } from '../ui/y';")).toHaveLength(1);
    expect(violations(at('protocol/x.ts'), "const m = await import('../store/z');")).toHaveLength(1);
    // What is allowed stays allowed, and comments are not code.
    expect(violations(at('protocol/x.ts'), "import { a } from '../rules/y';\n// Date.now() is the caller's")).toEqual([]);
    expect(violations(at('ui/x.tsx'), "import { a } from '../net/y';")).toEqual([]);
  });
});

// The screens' input, checked on every file of the screen folders: the reducer's view is the only
// thing a screen reads. A screen file (src/ui/game/screens, src/ui/lobby, src/ui/orders):
//  1. imports nothing that resolves into src/net (the carrier, invites, network settings) or
//     src/store (where the signed entries and Y.Doc updates are kept): what a screen needs from them
//     the game plumbing (src/ui/game outside screens/) offers through the session or a function of
//     its own;
//  2. reads no raw log messages: from src/protocol it imports, through the protocol's index, only
//     the types of the reducer's view (every name src/protocol/view.ts exports) and the pure
//     helpers over the view and keys listed in VIEW_HELPERS. Everything else the protocol exports
//     is the log itself (Message, Signed, Payload, openMessage, parseEntry, reduceLog, Admission,
//     the signing calls createGame, joinGame...), which only the plumbing touches;
//  3. does not reach into the runner's opened messages or entry log (`runner.opened`, `runner.log`);
//  4. does not reach past the session into its plumbing (`session.runner`, `session.device`): the
//     lobby, like every screen, joins, starts and draws through the session's actions. The game
//     page (src/ui/game/GamePage.tsx), which hands the session to the screens, is held to it too.

const screenFolders = ['ui/game/screens', 'ui/lobby', 'ui/orders'];
const screenFiles = ['ui/game/GamePage.tsx'];

/** Pure functions of the view (or of a key, or of the variant registry) a screen may call. */
const VIEW_HELPERS = ['fingerprint', 'variantOf', 'rosterProblem', 'lotPlayersProblem', 'timeoutsDue'];

/** Every name src/protocol/view.ts exports: the reducer's view and its parts. */
function viewNames(): Set<string> {
  const text = code(readFileSync(join(src, 'protocol/view.ts'), 'utf8'));
  return new Set([...text.matchAll(/export\s+(?:interface|type|const|function|enum|class)\s+([A-Za-z0-9_$]+)/g)].map((m) => m[1]!));
}

/** Each import or re-export with its specifier and the names it binds ('*' for everything). */
function namedImports(text: string): { spec: string; names: string[] }[] {
  const out: { spec: string; names: string[] }[] = [];
  const stat = /(?:import|export)\s+(?:type\s+)?([^'"`;]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(stat)) {
    const clause = m[1]!;
    const names: string[] = [];
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) {
      for (const part of braces[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name !== '') names.push(name);
      }
    }
    const rest = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (rest.includes('*')) names.push('*');
    else if (rest !== '') names.push('default');
    out.push({ spec: m[2]!, names });
  }
  for (const m of text.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g)) out.push({ spec: (m[1] ?? m[2])!, names: ['*'] });
  return out;
}

export function screenViolations(file: string, text: string, view: Set<string> = viewNames()): string[] {
  const body = code(text);
  const name = relative(root, file);
  const out: string[] = [];
  for (const { spec, names } of namedImports(body)) {
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    const inside = relative(src, target).split(/[\\/]/);
    if (inside[0] === 'net' || inside[0] === 'store') {
      out.push(`${name} imports ${spec}: the screens get the network and the store through the game plumbing`);
      continue;
    }
    if (inside[0] !== 'protocol') continue;
    const entry = inside.slice(1).join('/');
    if (entry !== '' && entry !== 'index' && entry !== 'view') {
      out.push(`${name} imports ${spec}: a screen imports the protocol through its index only`);
      continue;
    }
    for (const n of names) {
      if (!view.has(n) && !VIEW_HELPERS.includes(n)) out.push(`${name} imports ${n} from ${spec}: not part of the reducer's view`);
    }
  }
  if (/\brunner\s*\.\s*(opened|log)\b/.test(body)) out.push(`${name} reads the runner's raw messages`);
  if (/\bsession\s*\??\.\s*(runner|device)\b/.test(body)) out.push(`${name} reaches past the session into its runner or device`);
  return out;
}

describe('screens read the view only', () => {
  const view = viewNames();
  const screens = [...screenFolders.flatMap((f) => files(join(src, f))), ...screenFiles.map((f) => join(src, f))];

  it('no screen imports src/net or src/store, or any part of the protocol but the view', () => {
    expect(view.has('GameView')).toBe(true);
    expect(screens.length).toBeGreaterThan(40);
    const found = screens.flatMap((f) => screenViolations(f, readFileSync(f, 'utf8'), view));
    expect(found).toEqual([]);
  });

  it('the check itself catches each kind of breach', () => {
    const lobby = join(src, 'ui/lobby/x.tsx');
    const screen = join(src, 'ui/game/screens/x.tsx');
    const orders = join(src, 'ui/orders/x.ts');
    expect(screenViolations(lobby, "import { formatInvite } from '../../net/invite';", view)).toHaveLength(1);
    expect(screenViolations(screen, "import type { IceServer } from '../../../net/settings';", view)).toHaveLength(1);
    expect(screenViolations(orders, "const n = await import('../../net');", view)).toHaveLength(1);
    expect(screenViolations(lobby, "import { entryStorage } from '../../store';", view)).toHaveLength(1);
    expect(screenViolations(screen, "import { type GameView, openMessage } from '../../../protocol';", view)).toEqual([
      "src/ui/game/screens/x.tsx imports openMessage from ../../../protocol: not part of the reducer's view",
    ]);
    expect(screenViolations(lobby, "import type {\n  Message,\n  Signed as S,\n} from '../../protocol';", view)).toHaveLength(2);
    expect(screenViolations(lobby, "import * as P from '../../protocol';", view)).toHaveLength(1);
    expect(screenViolations(screen, "import { reduceLog } from '../../../protocol/reduce';", view)).toHaveLength(1);
    expect(screenViolations(lobby, 'const m = session.runner.opened.get(id);', view)).toHaveLength(2);
    expect(screenViolations(lobby, 'const m = game.runner.opened.get(id);', view)).toHaveLength(1);
    expect(screenViolations(lobby, 'void props.session.runner.join(name, null);', view)).toHaveLength(1);
    expect(screenViolations(lobby, 'useRememberedName(session.device, me?.name);', view)).toHaveLength(1);
    expect(screenViolations(join(src, 'ui/game/GamePage.tsx'), 'const open = session?.runner.gameRecord.table;', view)).toHaveLength(1);
    expect(screenViolations(lobby, 'void session.join(name, null); const d = props.device;', view)).toEqual([]);
    // The view, its helpers and everything else of the app stay allowed; comments are not code.
    expect(
      screenViolations(
        screen,
        "import { fingerprint, type GameView, type ResolvedPhase } from '../../../protocol';\nimport type { GameSession } from '../session';\n// import { x } from '../../../net';",
        view,
      ),
    ).toEqual([]);
  });
});
