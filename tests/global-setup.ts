/** Once per `jest` run: check the plugin is built and compile the playground's TypeScript into playground/dist. */
import fs from 'fs';
import path from 'path';

export default async function globalSetup() {
  const root = path.resolve(__dirname, '..');
  if (!fs.existsSync(path.join(root, 'dist', 'server', 'index.js'))) {
    throw new Error('The plugin is not built: run `npm test` (it builds first) or `npm run build`.');
  }
  const { compileStrapi } = await import('@strapi/strapi');
  await compileStrapi({ appDir: path.join(root, 'playground') });
}
