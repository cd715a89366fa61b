// The `pacto` command's bundle: src/cli and the rules engine it imports, compiled by esbuild into
// one CommonJS file, so the command starts without the TypeScript loader (tsx took about a second
// per call; the bundle loads in tens of milliseconds). The bundle is never edited or committed: it
// is built from the current sources (`npm install` runs `prepare`, which builds it; the command
// rebuilds it when a source changed), so the command runs the very engine the app runs.
//
// Freshness: the bundle's first line is a stamp naming every file the build read, with the size
// and modification time each had when esbuild read it, and the modification time of every folder
// those files sit in (a file added beside them could change what an import resolves to). Any
// difference, in either direction, makes the bundle stale. Checking costs one read and about sixty
// stats; no file is hashed.
//
// Writing is atomic (a temporary file renamed over the bundle), so concurrent first runs each build
// the same bytes and a reader never sees half a file. When the bundle cannot be built or written
// (read-only install, esbuild missing, a source that does not compile), the command runs the
// TypeScript sources through tsx as before: slower, never broken.
//
// `node bin/bundle.mjs` builds it (the `prepare` script). Environment, for tests and benchmarks:
//   PACTO_CLI_BUNDLE=FILE  use FILE as the bundle; PACTO_CLI_BUNDLE=off  always run through tsx.
//   PACTO_CLI_TRACE=1      the command prints how it ran and where its time went to stderr.
//
// Built-in modules come from process.getBuiltinModule: importing them as ES modules builds their
// ES facades, which for node:fs costs milliseconds of start-up.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const { createRequire } = process.getBuiltinModule('node:module');
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');

/** The package's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The command line's entry point, relative to the root. */
export const ENTRY = 'src/cli/main.ts';
/** Where the bundle lives: a build cache, like other tools' node_modules/.cache folders. */
export const DEFAULT_BUNDLE = path.join(ROOT, 'node_modules', '.cache', 'pacto', 'cli.cjs');
/** Files that shape the output without being bundled: this builder (its options), tsconfig.json
 *  (esbuild reads it) and package.json. esbuild's own package.json is added when the build runs. */
const SETTINGS = ['bin/bundle.mjs', 'tsconfig.json', 'package.json'];
const MARK = '// pacto-cli-bundle ';
const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.json': 'json' };

const require = createRequire(import.meta.url);

/** The stamp on the bundle's first line (read alone: the loader reads the rest). */
function readStamp(file) {
  const fd = fs.openSync(file, 'r');
  const chunks = [];
  let end = -1;
  try {
    for (let offset = 0; end < 0;) {
      const chunk = Buffer.allocUnsafe(16384);
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return undefined;
      const newline = chunk.subarray(0, n).indexOf(10);
      if (newline >= 0) end = offset + newline;
      chunks.push(chunk.subarray(0, n));
      offset += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  const head = Buffer.concat(chunks).toString('utf8', 0, end);
  if (!head.startsWith(MARK)) return undefined;
  try {
    return JSON.parse(head.slice(MARK.length));
  } catch {
    return undefined;
  }
}

/** Whether `file` is a bundle of the current sources under `root`. */
export function bundleStatus(file = DEFAULT_BUNDLE, root = ROOT) {
  let stamp;
  try {
    stamp = readStamp(file);
  } catch (e) {
    return { state: 'missing', reason: `no bundle at ${file} (${e.code ?? e.message})` };
  }
  if (!stamp || typeof stamp.files !== 'object' || typeof stamp.dirs !== 'object') return { state: 'stale', reason: 'the bundle has no stamp' };
  for (const [rel, [size, mtime]] of Object.entries(stamp.files)) {
    const s = fs.statSync(path.resolve(root, rel), { throwIfNoEntry: false });
    if (!s) return { state: 'stale', reason: `${rel} is gone` };
    if (s.size !== size || s.mtimeMs !== mtime) return { state: 'stale', reason: `${rel} changed` };
  }
  for (const [rel, mtime] of Object.entries(stamp.dirs)) {
    const s = fs.statSync(path.resolve(root, rel), { throwIfNoEntry: false });
    if (!s || s.mtimeMs !== mtime) return { state: 'stale', reason: `${rel}/ gained or lost a file` };
  }
  return { state: 'fresh' };
}

/** Bundles the command line from the sources under `root`. Returns the bundle's text (stamp
 *  first); with `write`, also puts it at `outfile`, atomically. */
export async function buildBundle({ root = ROOT, outfile = DEFAULT_BUNDLE, write = true } = {}) {
  const esbuild = await import('esbuild');
  // Each source is stat-ed just before it is read, so an edit made while esbuild works leaves the
  // stamp with the older time and the next run rebuilds.
  const files = new Map();
  const recordingLoader = {
    name: 'pacto-stamp',
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const loader = LOADERS[path.extname(args.path)];
        if (!loader) return undefined;
        const s = fs.statSync(args.path);
        files.set(args.path, [s.size, s.mtimeMs]);
        return { contents: fs.readFileSync(args.path), loader };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, ENTRY)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [recordingLoader],
  });
  const stampFiles = {};
  const dirs = new Set();
  for (const input of Object.keys(result.metafile.inputs).sort()) {
    const abs = path.resolve(root, input);
    const s = files.get(abs) ?? (({ size, mtimeMs }) => [size, mtimeMs])(fs.statSync(abs));
    stampFiles[input] = s;
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      const rel = path.relative(root, dir);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) break;
      dirs.add(dir);
    }
  }
  const settings = [...SETTINGS.map((f) => path.join(root, f)), require.resolve('esbuild/package.json')];
  for (const abs of settings) {
    const s = fs.statSync(abs, { throwIfNoEntry: false });
    if (s) stampFiles[path.relative(root, abs).split(path.sep).join('/')] = [s.size, s.mtimeMs];
  }
  const stampDirs = {};
  for (const dir of [...dirs].sort()) stampDirs[path.relative(root, dir).split(path.sep).join('/')] = fs.statSync(dir).mtimeMs;
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild wrote nothing');
  const code = `${MARK}${JSON.stringify({ files: stampFiles, dirs: stampDirs })}\n${output.text}`;
  if (write) {
    fs.mkdirSync(path.dirname(outfile), { recursive: true });
    const temporary = `${outfile}.${process.pid}-${Date.now()}.tmp`;
    try {
      fs.writeFileSync(temporary, code);
      fs.renameSync(temporary, outfile);
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  return { code };
}

function mainOf(file) {
  const { main } = require(file);
  if (typeof main !== 'function') throw new Error(`${file} exports no main`);
  return main;
}

function firstLine(e) {
  return String(e instanceof Error ? e.message : e).split('\n')[0];
}

/** The command line's `main`: from the bundle when it is fresh, else from a bundle built now,
 *  else from the TypeScript sources through tsx. Says which (`via`) and why (`reason`). */
export async function loadCli({ bundle = process.env.PACTO_CLI_BUNDLE || DEFAULT_BUNDLE } = {}) {
  let reason = 'PACTO_CLI_BUNDLE=off';
  if (bundle !== 'off') {
    const status = bundleStatus(bundle);
    reason = status.reason;
    if (status.state === 'fresh') {
      try {
        return { main: mainOf(bundle), via: 'bundle' };
      } catch (e) {
        reason = `the bundle did not load: ${firstLine(e)}`;
      }
    }
    try {
      await buildBundle({ outfile: bundle });
      return { main: mainOf(bundle), via: 'built', reason };
    } catch (e) {
      reason = `${reason}; could not bundle: ${firstLine(e)}`;
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import(pathToFileURL(path.join(ROOT, ENTRY)).href);
  return { main, via: 'tsx', reason };
}

// `node bin/bundle.mjs`: build the bundle now (npm's `prepare`). A failure is only a warning: the
// command still runs, through tsx, and `npm test` fails on a bundle that cannot be built.
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  const outfile = process.env.PACTO_CLI_BUNDLE && process.env.PACTO_CLI_BUNDLE !== 'off' ? process.env.PACTO_CLI_BUNDLE : DEFAULT_BUNDLE;
  try {
    await buildBundle({ outfile });
    console.log(`pacto: command line bundled into ${path.relative(process.cwd(), outfile) || outfile}`);
  } catch (e) {
    console.warn(`pacto: could not bundle the command line (it will run through tsx): ${e instanceof Error ? e.message : e}`);
  }
}
