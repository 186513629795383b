/**
 * After `strapi-plugin build`: the client's declarations (dist/client/src) import their response types from the
 * server's route shapes at the path they have in the sources (`../../server/src/features/<feature>/*.shapes`), but
 * the server bundle writes its declarations one level deeper (dist/server/src/server/src/…). Copy the declarations
 * the client's reach (the shapes and what they import in turn, `import('…')` types too) to where the client's point, so the published client
 * types resolve.
 */
import fs from 'node:fs';
import path from 'node:path';

const client = path.join('dist', 'client', 'src');
const written = path.join('dist', 'server', 'src', 'server', 'src');
const wanted = path.join('dist', 'server', 'src');

const relativeImports = (file) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/(?:from |import\()'(\.[^']+)'/g)].map((match) => path.join(path.dirname(file), match[1]));

const pending = fs
  .readdirSync(client)
  .filter((name) => name.endsWith('.d.ts'))
  .flatMap((name) => relativeImports(path.join(client, name)))
  .filter((target) => target.startsWith(wanted + path.sep) && !target.startsWith(written + path.sep));
const copied = new Set();
while (pending.length > 0) {
  const target = pending.pop();
  if (copied.has(target)) continue;
  const module = path.join(written, path.relative(wanted, target));
  const source = [`${module}.d.ts`, path.join(module, 'index.d.ts')].find((file) => fs.existsSync(file));
  if (!source) throw new Error(`${module}.d.ts is missing: did the server bundle emit its declarations?`);
  const copy = path.join(wanted, path.relative(written, source));
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.copyFileSync(source, copy);
  copied.add(target);
  pending.push(...relativeImports(copy));
}
