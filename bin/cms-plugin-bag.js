#!/usr/bin/env node
/**
 * `npx cms-plugin-bag import <file> [--source wordpress|disqus] [--dry-run]`, run in the Strapi app's folder
 * (docs/import.md#command-line): boots the app's own Strapi as the host's commands do (compiled first when it is
 * written in TypeScript), runs the same import the admin route runs, prints its progress and counts, and stops.
 * Exit code 0 when the import is done, 1 when it failed or was refused, 2 for a wrong command line.
 */
'use strict';

const path = require('path');

const USAGE = 'Usage: npx cms-plugin-bag import <file> [--source wordpress|disqus] [--dry-run]';

const parse = (argv) => {
  const [command, ...rest] = argv;
  if (command !== 'import') return null;
  const options = { file: undefined, source: undefined, dryRun: false };
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--source') options.source = rest[(i += 1)];
    else if (arg.startsWith('--source=')) options.source = arg.slice('--source='.length);
    else if (!arg.startsWith('--') && options.file === undefined) options.file = arg;
    else return null;
  }
  if (!options.file || (options.source !== undefined && !['wordpress', 'disqus'].includes(options.source))) return null;
  return options;
};

const main = async () => {
  const options = parse(process.argv.slice(2));
  if (!options) {
    console.error(USAGE);
    return 2;
  }
  const appDir = process.cwd();
  const file = path.resolve(appDir, options.file);
  // The app's own Strapi, not one beside this package.
  const { compileStrapi, createStrapi } = require(require.resolve('@strapi/strapi', { paths: [appDir] }));
  const context = await compileStrapi({ appDir, ignoreDiagnostics: true });
  const strapi = await createStrapi({ appDir: context.appDir, distDir: context.distDir }).load();
  try {
    const imports = strapi.plugin('cms-plugin-bag').service('imports');
    let shown = -1;
    const { row, done } = await imports.start(file, {
      source: options.source,
      dryRun: options.dryRun,
      onProgress: (processed, total) => {
        if (processed === shown) return;
        shown = processed;
        console.log(`${processed}/${total} items`);
      },
    });
    console.log(`Import ${row.id} of ${file} (${row.source}${options.dryRun ? ', dry run: nothing is written' : ''})`);
    const report = await done;
    for (const [kind, count] of Object.entries(report.counts || {})) console.log(`  ${kind}: ${count}`);
    const reasons = new Map();
    for (const item of report.skipped || []) reasons.set(`${item.kind}: ${item.reason}`, (reasons.get(`${item.kind}: ${item.reason}`) || 0) + 1);
    for (const [reason, count] of reasons) console.log(`  skipped ${reason}: ${count}`);
    if (report.status !== 'done') {
      console.error(`Import failed: ${report.error}`);
      return 1;
    }
    console.log(`Done: ${report.processed} items`);
    return 0;
  } catch (error) {
    console.error(error && error.message ? error.message : String(error));
    return 1;
  } finally {
    await strapi.destroy();
  }
};

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error && error.stack ? error.stack : String(error));
    process.exit(1);
  },
);
