/**
 * The host's output sanitizer run once per page instead of once per document: on one example document that has
 * every key the page's documents have, each relation and media value merged into one element from all of the page's
 * values, down every populated level. For the documents these reads return (fields, and relations and media with
 * their targets' fields and the relations populated inside them, read by relation-reads.ts or the Document Service),
 * what the sanitizer removes depends on keys, attributes and the caller's permissions, never on values: a private or
 * password field, a relation the role may not read. So the keys it keeps on the example are the keys every document
 * keeps, and each document is cut to them. Whenever the sanitizer changes a value of the example instead of removing
 * it (a morph relation filtered, anything this does not foresee), `shapeOf` answers null and the caller sanitizes
 * every document as before. Used by the lists (reads.ts) and the menus' items (menus.ts).
 */
import type { Core, Schema } from '@strapi/strapi';
import { isRecord } from '../../platform/is-record';

type Row = Record<string, unknown>;

/** The keys kept at one level, each with the shape kept inside it (relations and media), or null (a field). */
export type Shape = Map<string, Shape | null>;

/** The relation and media keys populated at one level, each with those populated inside its targets. */
export type RelationTree = ReadonlyMap<string, RelationTree>;

/** Relations and media populated with their targets' fields only. */
export const flatTree = (names: Iterable<string>): RelationTree => new Map([...names].map((name) => [name, new Map()]));

/**
 * Every key of `documents` with its first value, and each relation's value as one example of all its related rows
 * (merged the same way, level by level): a to-many one as a one-element array, null or [] when no document has one.
 */
export const exampleOf = (documents: Row[], relations: RelationTree): Row => {
  const example: Row = {};
  const related = new Map<string, Row[]>();
  for (const document of documents) {
    for (const [key, value] of Object.entries(document)) {
      if (!(key in example)) example[key] = value;
      if (!relations.has(key)) continue;
      const rows = related.get(key) ?? [];
      for (const row of Array.isArray(value) ? value : [value]) if (isRecord(row)) rows.push(row);
      related.set(key, rows);
    }
  }
  for (const [key, rows] of related) {
    if (rows.length === 0) continue;
    const merged = exampleOf(rows, relations.get(key)!);
    example[key] = Array.isArray(example[key]) ? [merged] : merged;
  }
  return example;
};

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The shape the sanitizer kept of `example` (`sanitized` is its answer for it), or null when it changed a value
 * instead of removing a key. `relations` names the relation and media keys at each level.
 */
export const shapeOf = (example: Row, sanitized: unknown, relations: RelationTree): Shape | null => {
  if (!isRecord(sanitized)) return null;
  const shape: Shape = new Map();
  for (const [key, value] of Object.entries(sanitized)) {
    if (!(key in example)) return null;
    const original = example[key];
    const inside = relations.get(key);
    if (!inside) {
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
    // A related row: its fields, and the relations populated inside it.
    const inner = isRecord(before) ? shapeOf(before, after, inside) : null;
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

/** What a populate entry may ask for and still give every related row the same keys (`count`, `on` may not). */
const KEY_NEUTRAL = new Set(['fields', 'populate', 'filters', 'sort']);

/**
 * The relations and media `populate` reads on `model` (an object, as the reads send it to the Document Service), but
 * those in `skip`; null when a populated attribute's values may differ in keys by document (`keysAlike`), or an entry
 * asks for more than fields, filters, a sort and, under a relation, a populate of the same kind.
 */
export const populatedTree = (
  strapi: Core.Strapi,
  model: Schema.ContentType,
  populate: Record<string, unknown>,
  skip: ReadonlySet<string> = new Set(),
): RelationTree | null => {
  const tree = new Map<string, RelationTree>();
  for (const [name, value] of Object.entries(populate)) {
    if (skip.has(name)) continue;
    const attribute = model.attributes[name] as { type: string; relation?: string; target?: string } | undefined;
    const populatable = attribute?.type === 'relation' || attribute?.type === 'media';
    if (!attribute || !populatable || !keysAlike(attribute)) return null;
    // `true` comes as the query string gave it, `'true'`, unless the read set it.
    const entry = value === true || value === 'true' ? {} : value;
    if (!isRecord(entry) || Object.keys(entry).some((key) => !KEY_NEUTRAL.has(key))) return null;
    if (entry.populate === undefined) {
      tree.set(name, new Map());
      continue;
    }
    const target = attribute.type === 'relation' && attribute.target ? strapi.getModel(attribute.target as never) : undefined;
    const inner = target && isRecord(entry.populate) ? populatedTree(strapi, target as Schema.ContentType, entry.populate) : null;
    if (!inner) return null;
    tree.set(name, inner);
  }
  return tree;
};

/**
 * Documents of `model` whose relations and media (`relations`) hold their targets' fields and the relations
 * populated inside them, sanitized for `auth` through one example document, or null when the sanitizer changed a
 * value of it or when output sanitizers other than the host's own are registered: the caller then sanitizes every
 * document.
 */
export const sanitizeByExample = async (
  strapi: Core.Strapi,
  model: Schema.ContentType,
  documents: Row[],
  auth: unknown,
  relations: RelationTree,
): Promise<Row[] | null> => {
  if (!builtInSanitizersOnly(strapi)) return null;
  const example = exampleOf(documents, relations);
  const [sanitized] = (await strapi.contentAPI.sanitize.output([example], model, { auth } as never)) as unknown[];
  const shape = shapeOf(example, sanitized, relations);
  return shape ? documents.map((document) => project(document, shape)) : null;
};
