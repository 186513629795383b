/**
 * The host's output sanitizer run once per page instead of once per document: on one example document that has
 * every key the page's documents have, each relation and media value cut to one element. For the documents these
 * reads return (fields, and relations and media read by relation-reads.ts, with their targets' fields), what the
 * sanitizer removes depends on keys, attributes and the caller's permissions, never on values: a private or
 * password field, a relation the role may not read. So the keys it keeps on the example are the keys every document
 * keeps, and each document is cut to them. Whenever the sanitizer changes a value of the example instead of removing
 * it (a morph relation filtered, anything this does not foresee), `shapeOf` answers null and the caller sanitizes
 * every document as before. Used by the lists (reads.ts) and the menus' items (menus.ts).
 */
import type { Core, Schema } from '@strapi/strapi';
import { isRecord } from '../../utils/is-record';

type Row = Record<string, unknown>;

/** The keys kept at one level, each with the shape kept inside it (relations and media), or null (a field). */
export type Shape = Map<string, Shape | null>;

/** The first element of each relation value, each to-many one as a one-element array, across all documents. */
export const exampleOf = (documents: Row[], relations: ReadonlySet<string>): Row => {
  const example: Row = {};
  for (const document of documents) {
    for (const [key, value] of Object.entries(document)) {
      if (!relations.has(key)) {
        if (!(key in example)) example[key] = value;
        continue;
      }
      const current = example[key];
      const empty = current === undefined || current === null || (Array.isArray(current) && current.length === 0);
      if (!empty) continue;
      example[key] = Array.isArray(value) ? value.slice(0, 1) : value;
    }
  }
  return example;
};

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The shape the sanitizer kept of `example` (`sanitized` is its answer for it), or null when it changed a value
 * instead of removing a key. `relationsOf(level)` names the relation and media keys at that level.
 */
export const shapeOf = (example: Row, sanitized: unknown, relations: ReadonlySet<string>): Shape | null => {
  if (!isRecord(sanitized)) return null;
  const shape: Shape = new Map();
  for (const [key, value] of Object.entries(sanitized)) {
    if (!(key in example)) return null;
    const original = example[key];
    if (!relations.has(key)) {
      if (!sameValue(value, original)) return null;
      shape.set(key, null);
      continue;
    }
    const before = Array.isArray(original) ? original[0] : original;
    const after = Array.isArray(value) ? value[0] : value;
    if (Array.isArray(original) !== Array.isArray(value)) return null;
    if (before === undefined || before === null) {
      if (after !== before) return null;
      shape.set(key, null);
      continue;
    }
    // A related row: its fields only (relation-reads.ts populates no deeper).
    const inner = isRecord(before) ? shapeOf(before, after, new Set()) : null;
    if (!inner) return null;
    shape.set(key, inner);
  }
  return shape;
};

/** `document` cut to `shape`, in its own key order. */
export const project = (document: Row, shape: Shape): Row => {
  const out: Row = {};
  for (const key of Object.keys(document)) {
    if (!shape.has(key)) continue;
    const inner = shape.get(key);
    const value = document[key];
    if (inner && Array.isArray(value)) out[key] = value.map((item) => (isRecord(item) ? project(item, inner) : item));
    else if (inner && isRecord(value)) out[key] = project(value, inner);
    else out[key] = value;
  }
  return out;
};

/**
 * Whether an attribute's values have the same keys in every document, as `exampleOf` needs: not a component or
 * dynamic zone (nested, or of several component types), nor a morph relation (rows of several target types).
 */
export const keysAlike = ({ type, relation }: { type: string; relation?: string }) =>
  type !== 'component' && type !== 'dynamiczone' && !String(relation ?? '').startsWith('morph');

/**
 * Whether the host's output sanitizers are only its own: the built-in ones work from keys, attributes and
 * permissions, plus the one Users & Permissions registers (it drops the `users` of role entities, by key). An
 * app or plugin that adds its own output sanitizer may decide on values, so every document then goes through it.
 */
const builtInSanitizersOnly = (strapi: Core.Strapi) =>
  strapi.sanitizers.get('content-api.output').length <= (strapi.plugin('users-permissions') ? 1 : 0);

/**
 * Documents of `model` whose relations and media (`relations`) hold their targets' fields only, sanitized for `auth`
 * through one example document, or null when the sanitizer changed a value of it or when output sanitizers other
 * than the host's own are registered: the caller then sanitizes every document.
 */
export const sanitizeByExample = async (
  strapi: Core.Strapi,
  model: Schema.ContentType,
  documents: Row[],
  auth: unknown,
  relations: ReadonlySet<string>,
): Promise<Row[] | null> => {
  if (!builtInSanitizersOnly(strapi)) return null;
  const example = exampleOf(documents, relations);
  const [sanitized] = (await strapi.contentAPI.sanitize.output([example], model, { auth } as never)) as unknown[];
  const shape = shapeOf(example, sanitized, relations);
  return shape ? documents.map((document) => project(document, shape)) : null;
};
