#!/usr/bin/env node
// Browser tests drive Debian's Chromium through playwright-core (a downloaded browser build cannot be
// fetched on these machines). Install it when it is missing so `npm test` works on a fresh machine.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
if (candidates.some((p) => existsSync(p))) process.exit(0);

if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
  console.error('Chromium not found. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
  process.exit(1);
}
const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
console.log('Installing Debian chromium for the browser tests...');
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null`, {
    stdio: 'inherit',
    shell: '/bin/bash',
  });
} catch (err) {
  console.error('Could not install chromium:', err.message);
  process.exit(1);
}
if (!candidates.some((p) => existsSync(p)) && !existsSync('/usr/bin/chromium')) {
  console.error('chromium package installed but /usr/bin/chromium is missing');
  process.exit(1);
}
