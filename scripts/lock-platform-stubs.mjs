#!/usr/bin/env node
/**
 * Makes package-lock.json acceptable to `npm ci` on a registry mirror that only serves this platform's binaries.
 *
 * Packages such as @swc/core and rollup list one optional binary package per platform. When the registry answers
 * 404 for the other platforms' binaries, `npm install` leaves them out of the lockfile, and `npm ci` then refuses
 * the lockfile as out of sync with package.json. This adds the missing entries with the version the parent asks for
 * and the `os` / `cpu` / `libc` read from the package name (`dev` as its parent), so npm skips them here without fetching, exactly as it
 * would with the registry's own metadata. Run it after `npm install` changes the lockfile; it changes nothing else.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOCKFILE = new URL('../package-lock.json', import.meta.url);
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'win32'];
const CPU = { arm: 'arm', arm64: 'arm64', x64: 'x64', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x' };
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** `{ cpu, libc?, os }` from a binary package's name such as `@rollup/rollup-linux-arm-musleabihf`, or null. */
const platformOf = (name) => {
  const parts = name.split('/').pop().split('-');
  const at = parts.findIndex((part) => OS.includes(part));
  if (at < 0) return null;
  const os = parts[at];
  const [arch, ...abi] = parts.slice(at + 1);
  const cpu = CPU[arch];
  if (!cpu) return null;
  if (os !== 'linux') return { cpu: [cpu], os: [os] };
  const libc = LIBC[abi.join('-')];
  return libc ? { cpu: [cpu], libc: [libc], os: [os] } : null;
};

const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8'));
const added = [];
const unknown = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[base] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform) {
      unknown.push(`${name}@${version} (wanted by ${path || 'the root'})`);
      continue;
    }
    // Keys in the order npm writes them (version, then alphabetical), so a later `npm install` leaves them as they are.
    const { cpu, libc, os } = platform;
    lock.packages[`node_modules/${name}`] = { version, cpu, ...(entry.dev && { dev: true }), ...(libc && { libc }), optional: true, os };
    added.push(`${name}@${version}`);
  }
}

if (unknown.length > 0) {
  console.error(`lock-platform-stubs: no platform could be read from:\n  ${unknown.join('\n  ')}`);
  process.exit(1);
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platform-stubs: ${added.length} entr${added.length === 1 ? 'y' : 'ies'} added${added.length ? `: ${added.join(', ')}` : ''}`);
