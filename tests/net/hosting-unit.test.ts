// The systemd unit of docs/hosting.md (docs/hosting/pacto.service), tried as far as a machine
// without a running systemd allows: systemd's own checker reads it without a complaint; it names a
// non-root user, a restart policy and a file limit; and its ExecStart, run with the unit's own
// environment as an unprivileged user (setpriv, when the test runs as root), serves /healthz from
// the compiled server under plain Node, and after a kill -9 (what Restart= answers) starts again on
// the same store with nothing lost.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import nacl from 'tweetnacl';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/protocol';
import { appendIdFor, relayKeysFor } from '../../src/net/relay/keys';
import { freePort, rawClient, serverBuilt, tempDir } from './helpers/relay';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const UNIT = resolve(ROOT, 'docs/hosting/pacto.service');
const store = tempDir('pacto-unit-store-');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  store.remove();
});

/** The unit's [Service] settings: every key, each with its values in order. */
function service(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) section = line;
    else if (section === '[Service]') {
      const eq = line.indexOf('=');
      const key = line.slice(0, eq);
      out.set(key, [...(out.get(key) ?? []), line.slice(eq + 1)]);
    }
  }
  return out;
}

const KEYS = relayKeysFor('unit-game-0000000001', 'unit-password-000001');
const BLOB = new TextEncoder().encode('kept across a restart'.padEnd(64, '.'));

describe('the systemd unit', () => {
  const text = readFileSync(UNIT, 'utf8');
  const unit = service(text);

  it('passes systemd-analyze verify with nothing to say', async () => {
    const { stdout, stderr } = await run('systemd-analyze', ['verify', UNIT]);
    expect(stdout + stderr).toBe('');
  });

  it('names a non-root user, a restart policy, a file limit and the compiled server', () => {
    expect(unit.get('User')?.[0]).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(unit.get('User')?.[0]).not.toBe('root');
    expect(['always', 'on-failure']).toContain(unit.get('Restart')?.[0]);
    expect(Number(unit.get('LimitNOFILE')?.[0])).toBeGreaterThanOrEqual(4096);
    const exec = unit.get('ExecStart')?.[0] ?? '';
    expect(exec).toMatch(/^\/usr\/bin\/node bin\/pacto-server\.mjs$/);
    expect(exec).not.toContain('tsx');
  });

  it("its ExecStart, with the unit's environment, serves as an unprivileged user and starts again after a kill -9 on the same store", async () => {
    await serverBuilt();
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    for (const e of unit.get('Environment') ?? []) {
      const eq = e.indexOf('=');
      env[e.slice(0, eq)] = e.slice(eq + 1);
    }
    // The machine's own places instead of /srv/pacto; everything else as the unit says.
    env.PACTO_RELAY_DIR = store.dir;
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(store.dir, 65534, 65534);
    const [command, ...args] = (unit.get('ExecStart')?.[0] ?? '').split(' ');
    const start = async (): Promise<{ child: ChildProcess; port: number }> => {
      const port = await freePort();
      const argv = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', command!, ...args] : [command!, ...args];
      const child = spawn(argv[0]!, argv.slice(1), { cwd: ROOT, env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 20_000 },
        )
        .toBe(200);
      expect(out).not.toMatch(/Error|tsx/);
      return { child, port };
    };

    const first = await start();
    if (asRoot) expect(readFileSync(`/proc/${first.child.pid}/status`, 'utf8')).toMatch(/^Uid:\s+65534\s/m);
    const c = await rawClient(`ws://127.0.0.1:${first.port}/relay`);
    c.send({ t: 'append', rid: 'a1', room: KEYS.room, token: KEYS.token, id: appendIdFor(KEYS.key, nacl.hash(BLOB)), blob: toBase64(BLOB) });
    expect(await c.answer('a1')).toMatchObject({ t: 'ack' });
    c.ws.terminate();
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await start();
    const d = await rawClient(`ws://127.0.0.1:${second.port}/relay`);
    d.send({ t: 'fetch', rid: 'f1', room: KEYS.room, token: KEYS.token, after: '' });
    const page = (await d.answer('f1')) as unknown as { items: { blob: string }[] };
    expect(page.items.map((i) => i.blob)).toEqual([toBase64(BLOB)]);
    d.ws.terminate();
    second.child.kill('SIGTERM');
  });
});
