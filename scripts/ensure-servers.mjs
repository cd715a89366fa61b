#!/usr/bin/env node
// The relay's tests run a real redis-server (PACTO_REDIS_URL), a real coturn (TURN), openssl
// (a certificate for the fake push service), Caddy (TLS in front of the server, as
// docs/hosting.md sets it up) and systemd-analyze (the unit's checker) from Debian's packages. Install them when missing, the way
// ensure-chromium.mjs installs Chromium, so `npm test` works on a fresh machine. None is started as
// a service: tests start their own on free ports with their files in temp dirs.
import { existsSync } from 'node:fs';
import { aptInstall } from './apt.mjs';

const wanted = [
  { bin: ['/usr/bin/redis-server', '/usr/bin/redis-cli'], pkg: 'redis-server' },
  { bin: ['/usr/bin/turnserver'], pkg: 'coturn' },
  // The fake push service's self-signed HTTPS certificate (tests/net/helpers/push-service.ts).
  { bin: ['/usr/bin/openssl'], pkg: 'openssl' },
  // Caddy in front of the server with `tls internal` (tests/e2e/caddy-tls.test.ts), as docs/hosting.md sets it up.
  { bin: ['/usr/bin/caddy'], pkg: 'caddy' },
  // systemd's own checker of docs/hosting/pacto.service (tests/net/hosting-unit.test.ts); no systemd is run.
  { bin: ['/usr/bin/systemd-analyze'], pkg: 'systemd' },
];
const missing = wanted.filter((w) => !w.bin.every((b) => existsSync(b)));
if (missing.length === 0) process.exit(0);

const names = missing.map((m) => m.pkg).join(' ');
if (process.platform !== 'linux' || !existsSync('/usr/bin/apt-get')) {
  console.error(`Missing for the relay tests: ${names}. Install them (Debian: apt-get install ${names}).`);
  process.exit(1);
}
console.log(`Installing Debian ${names} for the relay tests...`);
try {
  // policy-rc.d may refuse to start the services in a container; that is fine, tests start their own.
  aptInstall(missing.map((m) => m.pkg));
} catch (err) {
  console.error(`Could not install ${names}:`, err.message);
  process.exit(1);
}
for (const w of missing) {
  if (!w.bin.every((b) => existsSync(b))) {
    console.error(`${w.pkg} installed but ${w.bin.join(' or ')} is missing`);
    process.exit(1);
  }
}
