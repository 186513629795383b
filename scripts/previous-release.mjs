#!/usr/bin/env node
/**
 * Builds the packed tarball of a previous release for the upgrade test (tests/upgrade): the tag's source
 * (`git archive`, so no git worktree is created), this repository's node_modules linked in, `npm pack` (which builds
 * first, as at publication), and the result copied to tests/upgrade/fixtures/ with its provenance (tag, commit,
 * sha256) in tests/upgrade/fixtures/previous-release.json.
 *
 * The tarball is committed: the test runs on a fresh (possibly shallow) clone without the tag's history.
 * Run it again only to move the test to another release: `node scripts/previous-release.mjs [tag]` (default v0.1.0).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tag = process.argv[2] ?? 'v0.1.0';
const fixtures = path.join(root, 'tests', 'upgrade', 'fixtures');
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } });

const commit = git('rev-list', '-n', '1', tag);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-plugin-bag-previous-'));
const source = path.join(work, 'source');
fs.mkdirSync(source);

try {
  console.log(`==> ${tag} (${commit}) into ${source}`);
  git('archive', '--format=tar', '-o', path.join(work, 'source.tar'), commit);
  run('tar', ['-xf', path.join(work, 'source.tar'), '-C', source], root);
  // The same dependency versions as this checkout: the build tools and the host the release was built against.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(source, 'node_modules'), 'dir');

  console.log('==> npm pack (builds first)');
  run('npm', ['pack', '--pack-destination', work], source);
  const name = fs.readdirSync(work).find((file) => file.endsWith('.tgz'));
  if (!name) throw new Error('npm pack wrote no tarball');

  fs.mkdirSync(fixtures, { recursive: true });
  for (const old of fs.readdirSync(fixtures).filter((file) => file.endsWith('.tgz'))) fs.rmSync(path.join(fixtures, old));
  const target = path.join(fixtures, name);
  fs.copyFileSync(path.join(work, name), target);
  const bytes = fs.readFileSync(target);
  const provenance = {
    tag,
    commit,
    tarball: name,
    bytes: bytes.length,
    sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    builtWith: { node: process.version, strapi: JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@strapi', 'strapi', 'package.json'), 'utf8')).version },
    rebuild: `node scripts/previous-release.mjs ${tag}`,
  };
  fs.writeFileSync(path.join(fixtures, 'previous-release.json'), `${JSON.stringify(provenance, null, 2)}\n`);
  console.log(`==> ${path.relative(root, target)} (${(bytes.length / 1024).toFixed(0)} KiB)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
