/**
 * Once per `jest` run: check the plugin is built, compile the playground's TypeScript into playground/dist, and make
 * the run's template database (tests/helpers/template.ts), which tests/global-teardown.ts removes.
 */
import fs from 'fs';
import path from 'path';
import { buildTemplate } from './helpers/template';

export default async function globalSetup() {
  const root = path.resolve(__dirname, '..');
  if (!fs.existsSync(path.join(root, 'dist', 'server', 'index.js'))) {
    throw new Error('The plugin is not built: run `npm test` (it builds first) or `npm run build`.');
  }
  const { compileStrapi } = await import('@strapi/strapi');
  await compileStrapi({ appDir: path.join(root, 'playground') });
  await buildTemplate();
}
