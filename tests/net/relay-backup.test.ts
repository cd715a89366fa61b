// Backup and restore of the relay's embedded store (`pacto-server backup` / `restore`, `npm run backup` / `npm run
// restore`): a copy taken while the real server process runs and takes appends, then the server
// stopped, its store restored from the copy, and the room's log continues on the restored store:
// what was there at the copy is served, new appends are taken, and the store that was replaced is
// kept aside, not deleted.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import nacl from 'tweetnacl';
import { afterAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/protocol';
import { appendIdFor, relayKeysFor } from '../../src/net/relay/keys';
import { rawClient, SERVER_COMMAND, startServe, tempDir, type RawClient, type ServeProcess } from './helpers/relay';

const run = promisify(execFile);
const base = tempDir('pacto-backup-');
const storeDir = join(base.dir, 'relay');
const copyDir = join(base.dir, 'copy');
const servers: ServeProcess[] = [];
const clients: RawClient[] = [];
const KEYS = relayKeysFor('backup-game-000000001', 'backup-password-00001');

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const s of servers) await s.stop();
  base.remove();
});

let rid = 0;
async function append(c: RawClient, text: string) {
  const blob = new TextEncoder().encode(text.padEnd(64, '.'));
  const id = `a${++rid}`;
  c.send({ t: 'append', rid: id, room: KEYS.room, token: KEYS.token, id: appendIdFor(KEYS.key, nacl.hash(blob)), blob: toBase64(blob) });
  return c.answer(id);
}

async function fetchAll(c: RawClient): Promise<string[]> {
  const id = `f${++rid}`;
  c.send({ t: 'fetch', rid: id, room: KEYS.room, token: KEYS.token, after: '' });
  const page = (await c.answer(id)) as unknown as { items: { blob: string }[] };
  return page.items.map((it) => new TextDecoder().decode(Buffer.from(it.blob, 'base64url')).replace(/\.+$/, ''));
}

const script = (command: string, dir: string) =>
  run(process.execPath, [SERVER_COMMAND, command, dir], { env: { ...process.env, PACTO_RELAY_DIR: storeDir }, timeout: 60_000 });

describe('backup and restore of the embedded store', () => {
  it('a copy taken while the server runs restores to a store the game continues on', async () => {
    const first = await startServe({ PACTO_RELAY_DIR: storeDir, PACTO_PUSH: '0' });
    servers.push(first);
    const c = await rawClient(`ws://127.0.0.1:${first.port}/relay`);
    clients.push(c);
    for (const n of [1, 2, 3]) expect(await append(c, `before ${n}`)).toMatchObject({ t: 'ack' });

    // The copy, while the server runs and appends go on.
    const appending = (async () => {
      for (const n of [1, 2, 3, 4, 5]) await append(c, `during ${n}`);
    })();
    const { stdout } = await script('backup', copyDir);
    await appending;
    expect(stdout).toContain('1 room(s)');
    expect(await append(c, 'after the copy')).toMatchObject({ t: 'ack' });
    const atCopy = await fetchAll(c);
    expect(atCopy).toContain('after the copy');

    await first.stop();
    const { stdout: restored } = await script('restore', copyDir);
    expect(restored).toContain('1 room(s) restored');
    // The replaced store is kept aside.
    expect(readdirSync(base.dir).some((f) => f.startsWith('relay.before-restore-'))).toBe(true);
    expect(existsSync(join(storeDir, 'data.mdb'))).toBe(true);

    const second = await startServe({ PACTO_RELAY_DIR: storeDir, PACTO_PUSH: '0' });
    servers.push(second);
    const d = await rawClient(`ws://127.0.0.1:${second.port}/relay`);
    clients.push(d);
    const back = await fetchAll(d);
    // Everything before the copy, in order; an append made during it is there whole or not at all;
    // the one after the copy is not.
    expect(back.slice(0, 3)).toEqual(['before 1', 'before 2', 'before 3']);
    expect(back.every((t) => atCopy.includes(t))).toBe(true);
    expect(back).toEqual(atCopy.slice(0, back.length));
    expect(back).not.toContain('after the copy');
    // The game continues on the restored store.
    expect(await append(d, 'after the restore')).toMatchObject({ t: 'ack' });
    expect((await fetchAll(d)).at(-1)).toBe('after the restore');
  });

  it('refuses a target that is not empty, and a folder that holds no backup', async () => {
    await expect(script('backup', copyDir)).rejects.toThrow(/not empty/);
    await expect(script('restore', join(base.dir, 'nothing-here'))).rejects.toThrow(/holds no backup/);
  });
});
