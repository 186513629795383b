/**
 * After `strapi-plugin build`: the client's declarations (dist/client/src) import their response types from the
 * server's route shapes at the path they have in the sources (`../../server/src/domain/shapes/*`), but the server
 * bundle writes its declarations one level deeper (dist/server/src/server/src/…). Copy the shapes' declarations to
 * where the client's point, so the published client types resolve.
 */
import fs from 'node:fs';
import path from 'node:path';

const from = path.join('dist', 'server', 'src', 'server', 'src', 'domain', 'shapes');
const to = path.join('dist', 'server', 'src', 'domain', 'shapes');

if (!fs.existsSync(from)) throw new Error(`${from} is missing: did the server bundle emit its declarations?`);
fs.mkdirSync(to, { recursive: true });
for (const file of fs.readdirSync(from).filter((name) => name.endsWith('.d.ts'))) {
  fs.copyFileSync(path.join(from, file), path.join(to, file));
}
