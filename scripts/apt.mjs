// One way to install Debian packages for the test prerequisites (ensure-chromium.mjs, ensure-servers.mjs).
// Two test runs started side by side, or a package install already going on the machine, must not fail
// the pretest step: our own installs queue on one flock, and apt waits up to 10 minutes for anyone
// else's dpkg lock (DPkg::Lock::Timeout does not cover the lists lock of `apt-get update`, the flock does
// for our runs).
import { execSync } from 'node:child_process';

export function aptInstall(packages) {
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  const wait = '-o DPkg::Lock::Timeout=600';
  const steps = `apt-get ${wait} update -qq && env DEBIAN_FRONTEND=noninteractive apt-get ${wait} install -y -qq ${packages.join(' ')} >/dev/null`;
  execSync(`${sudo}flock -w 900 /var/lock/pacto-apt.lock bash -c '${steps}'`, { stdio: 'inherit', shell: '/bin/bash' });
}
