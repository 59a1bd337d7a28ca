#!/usr/bin/env node
// Restores the platform-specific optional packages that `npm install` leaves out of
// package-lock.json when the registry it talks to does not serve them (npm/cli#9846):
// the lock it writes is then refused by its own `npm ci` ("Missing: @unrs/resolver-binding-
// darwin-arm64@ from lock file"). Each missing entry is written the way npm writes one it
// could resolve (version, cpu, os, libc, optional), without an integrity hash, which npm
// records when it first downloads the package on that platform.
//
//   node scripts/complete-lockfile.mjs           add the missing entries
//   node scripts/complete-lockfile.mjs --check   exit 1 if any is missing (run by `npm test`)
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
];
const CPU = ['arm', 'arm64', 'ia32', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'x64'];

/** `@unrs/resolver-binding-linux-arm-gnueabihf` → { os: linux, cpu: arm, libc: glibc } */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  for (let i = 0; i < parts.length - 1; i += 1) {
    if (OS.includes(parts[i]) && CPU.includes(parts[i + 1])) {
      const abi = parts[i + 2] ?? '';
      const libc = abi.startsWith('gnu') ? 'glibc' : abi.startsWith('musl') ? 'musl' : undefined;
      return { os: parts[i], cpu: parts[i + 1], libc };
    }
  }
  return undefined;
}

function complete(lock) {
  const added = [];
  const problems = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    // A bundled package's dependencies come inside its tarball; npm ci does not look for them.
    if (entry.inBundle) continue;
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const key = `${path ? `${path}/` : ''}node_modules/${name}`;
      if (lock.packages[key] || lock.packages[`node_modules/${name}`]) continue;
      const platform = platformOf(name);
      if (!platform) {
        problems.push(
          `${name}@${version} (optional dependency of ${path}): not a platform package; run npm install where the registry serves it`,
        );
        continue;
      }
      const added_entry = { version, cpu: [platform.cpu] };
      if (entry.dev) added_entry.dev = true;
      if (platform.libc) added_entry.libc = [platform.libc];
      added_entry.optional = true;
      added_entry.os = [platform.os];
      lock.packages[`node_modules/${name}`] = added_entry;
      added.push(`${name}@${version}`);
    }
  }
  const sorted = {};
  for (const key of Object.keys(lock.packages).sort((a, b) => a.localeCompare(b, 'en'))) {
    sorted[key] = lock.packages[key];
  }
  lock.packages = sorted;
  return { added, problems };
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const { added, problems } = complete(lock);
for (const problem of problems) process.stderr.write(`complete-lockfile: ${problem}\n`);
if (process.argv.includes('--check')) {
  if (added.length > 0) {
    process.stderr.write(
      `complete-lockfile: package-lock.json lacks ${added.length} platform package(s) that npm ci needs: ${added.join(', ')}\n` +
        'Run `node scripts/complete-lockfile.mjs` and commit package-lock.json.\n',
    );
    process.exit(1);
  }
} else if (added.length > 0) {
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(`complete-lockfile: added ${added.length} entries: ${added.join(', ')}\n`);
}
process.exit(problems.length > 0 ? 1 : 0);
