#!/usr/bin/env node
// Browser tests drive Debian's Chromium through playwright-core (a downloaded browser build cannot be
// fetched on these machines). Install it when it is missing so `npm test` works on a fresh machine.
import { existsSync } from 'node:fs';
import { aptInstall } from './apt.mjs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
if (candidates.some((p) => existsSync(p))) process.exit(0);

if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
  console.error('Chromium not found. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests...');
try {
  aptInstall(['chromium', 'fonts-dejavu-core']);
} catch (err) {
  console.error('Could not install chromium:', err.message);
  process.exit(1);
}
if (!candidates.some((p) => existsSync(p)) && !existsSync('/usr/bin/chromium')) {
  console.error('chromium package installed but /usr/bin/chromium is missing');
  process.exit(1);
}
