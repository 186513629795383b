/**
 * A list's order read backwards (docs/content.md#how-it-behaves): a page past the middle of a list is read in
 * the reversed order with an offset counted from the end, and its rows are put back in order in memory, so the
 * database walks at most half the list before a page instead of every row before it.
 *
 * The host's Query Engine ends every limited read's order with `id asc` when the sort does not already end with
 * `id`, so that order is total. Its exact reverse is every key's direction flipped and `id desc` last; NULLs and
 * collations reverse with the direction on both databases. Only sorts on the type's own scalar attributes are
 * reversed: a sort through a relation joins other tables (Strapi's deep sort), and is read forwards as before.
 */
import type { Core, UID } from '@strapi/strapi';

type Direction = 'asc' | 'desc';
export type SortEntry = Record<string, Direction>;

const directionOf = (value: unknown): Direction | null => {
  if (value === undefined) return 'asc';
  if (typeof value !== 'string') return null;
  const lower = value.toLowerCase();
  return lower === 'asc' || lower === 'desc' ? lower : null;
};

/** The sort as `[attribute, direction]` pairs, in any of the host's shapes (`'a:desc,b'`, arrays, objects); null for a nested sort. */
const keysOf = (sort: unknown): [string, Direction][] | null => {
  if (sort === undefined || sort === null) return [];
  if (typeof sort === 'string') {
    const keys: [string, Direction][] = [];
    for (const part of sort.split(',')) {
      const [field, order] = part.split(':').map((piece) => piece.trim());
      const direction = directionOf(order);
      if (!field || !direction) return null;
      keys.push([field, direction]);
    }
    return keys;
  }
  if (Array.isArray(sort)) {
    const keys: [string, Direction][] = [];
    for (const item of sort) {
      const part = keysOf(item);
      if (!part) return null;
      keys.push(...part);
    }
    return keys;
  }
  if (typeof sort === 'object') {
    const keys: [string, Direction][] = [];
    for (const [field, order] of Object.entries(sort as Record<string, unknown>)) {
      const direction = directionOf(order);
      if (!direction) return null;
      keys.push([field, direction]);
    }
    return keys;
  }
  return null;
};

/**
 * The exact reverse of the order the host reads `sort` in for `uid` (the id tie-breaker included), or null when the
 * sort names anything but the type's own scalar attributes.
 */
export const reversedOrder = (strapi: Core.Strapi, uid: UID.ContentType, sort: unknown): SortEntry[] | null => {
  const keys = keysOf(sort);
  if (!keys) return null;
  const attributes = strapi.db.metadata.get(uid).attributes as Record<string, { type?: string }>;
  const scalar = (field: string) => {
    const type = attributes[field]?.type;
    return Boolean(type) && !['relation', 'component', 'dynamiczone', 'media', 'json', 'blocks'].includes(String(type));
  };
  if (!keys.every(([field]) => scalar(field))) return null;
  const full = keys.length > 0 && keys[keys.length - 1][0] === 'id' ? keys : [...keys, ['id', 'asc'] as [string, Direction]];
  return full.map(([field, direction]) => ({ [field]: direction === 'asc' ? 'desc' : 'asc' }));
};
