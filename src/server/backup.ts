// `pacto-server backup DIR` (`npm run backup -- DIR`): a consistent copy of the relay's embedded store (LMDB) while the server
// runs, into DIR (made; it must not exist or be empty), with the VAPID key file if one is kept
// apart (PACTO_VAPID_FILE). LMDB copies from one read transaction, so the copy is one moment of
// the store, whatever the server writes meanwhile.
// `pacto-server restore DIR` (`npm run restore -- DIR`; the server stopped): checks the copy opens, moves the current store
// aside (nothing is deleted) and puts the copy in its place, and the VAPID file back if it is missing.
// The store is PACTO_RELAY_DIR (default .pacto/relay), as for the server.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { open } from 'lmdb';

/** A refusal: the command prints it and exits with status 1, having changed nothing. */
class Refused extends Error {}

function fail(message: string): never {
  throw new Refused(message);
}

/** Rooms in a store, by its counters (the check that a copy opens and holds what it should). */
function roomsIn(dir: string): number {
  const root = open({ path: dir, maxDbs: 8, overlappingSync: false, readOnly: true });
  try {
    const rooms = root.openDB({ name: 'rooms', encoding: 'json', keyEncoding: 'binary' });
    let n = 0;
    for (const _ of rooms.getKeys({})) n++;
    return n;
  } finally {
    void root.close();
  }
}

async function backup(dest: string, storeDir: string, vapidFile: string | undefined): Promise<void> {
  if (!existsSync(join(storeDir, 'data.mdb'))) fail(`no relay store in ${storeDir}`);
  if (existsSync(dest) && readdirSync(dest).length > 0) fail(`${dest} is not empty`);
  mkdirSync(dest, { recursive: true });
  // The server's own options, so both processes share LMDB's lock the same way.
  const root = open({ path: storeDir, maxDbs: 8, overlappingSync: false });
  try {
    await root.backup(dest, true);
  } finally {
    await root.close();
  }
  if (vapidFile !== undefined && existsSync(vapidFile)) copyFileSync(vapidFile, join(dest, 'vapid.json'));
  const rooms = roomsIn(dest);
  writeFileSync(join(dest, 'pacto-backup.json'), JSON.stringify({ created: new Date().toISOString(), store: storeDir, rooms }, null, 2) + '\n');
  console.log(`pacto backup: ${rooms} room(s) from ${storeDir} copied to ${dest}`);
}

function restore(from: string, storeDir: string, vapidFile: string | undefined): void {
  if (!existsSync(join(from, 'data.mdb'))) fail(`${from} holds no backup (data.mdb)`);
  const rooms = roomsIn(from);
  if (existsSync(storeDir)) {
    const aside = `${storeDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(storeDir, aside);
    console.log(`pacto restore: the store that was there is kept in ${basename(aside)}`);
  }
  mkdirSync(storeDir, { recursive: true });
  copyFileSync(join(from, 'data.mdb'), join(storeDir, 'data.mdb'));
  if (vapidFile !== undefined && !existsSync(vapidFile) && existsSync(join(from, 'vapid.json'))) copyFileSync(join(from, 'vapid.json'), vapidFile);
  console.log(`pacto restore: ${rooms} room(s) restored into ${storeDir}; start the server`);
}

/** Runs `backup DIR` or `restore DIR`; returns the exit status. The store is PACTO_RELAY_DIR
 *  (default .pacto/relay), as for the server; the VAPID file PACTO_VAPID_FILE. */
export async function backupCommand(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, target] = args;
  if (target === undefined || (command !== 'backup' && command !== 'restore')) {
    console.error('usage: pacto-server backup DIR | pacto-server restore DIR   (PACTO_RELAY_DIR: the store, default .pacto/relay)');
    return 2;
  }
  const storeDir = resolve(env.PACTO_RELAY_DIR ?? '.pacto/relay');
  try {
    if (command === 'backup') await backup(resolve(target), storeDir, env.PACTO_VAPID_FILE);
    else restore(resolve(target), storeDir, env.PACTO_VAPID_FILE);
    return 0;
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    console.error(`pacto-server ${command}: ${e.message}`);
    return 1;
  }
}
