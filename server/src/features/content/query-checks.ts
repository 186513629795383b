/**
 * Query checks of the public reads, as the host's own REST controllers do them (validate.query → sanitize.query),
 * with the relation depth capped first (content.maxRelationDepth) and the filter values checked after.
 */
import type { Core, UID } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { getService } from '../../platform/get-service';
import { isRecord } from '../../platform/is-record';
import { checkFilterValues, checkRelationDepth } from './query-shape';

const QUERY_KEYS = ['filters', 'sort', 'fields', 'populate', 'pagination'] as const;

export type Auth = unknown;

const PAGINATION_FIELDS = { page: 1, pageSize: 1, start: 0, limit: -1 } as const;

/** Pagination values must be integers: a malformed one is the caller's mistake, a 400. */
export function parsePagination(raw: unknown): Partial<Record<keyof typeof PAGINATION_FIELDS, number>> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new errors.ValidationError('Invalid pagination parameter');
  const parsed: Partial<Record<keyof typeof PAGINATION_FIELDS, number>> = {};
  for (const [key, min] of Object.entries(PAGINATION_FIELDS) as [keyof typeof PAGINATION_FIELDS, number][]) {
    const value = raw[key];
    if (value === undefined) continue;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < min) {
      throw new errors.ValidationError(`Invalid pagination[${key}]: expected an integer >= ${min}`, {
        key,
        source: 'query',
        param: 'pagination',
      });
    }
    parsed[key] = number;
  }
  return parsed;
}

export const queryChecks = (strapi: Core.Strapi) => {
  const model = (uid: UID.ContentType) => strapi.getModel(uid);
  const getModel = (name: string) => strapi.getModel(name as UID.Schema) as never;

  /**
   * The host's validation and sanitization, with the relation depth capped first (content.maxRelationDepth) and
   * the filter values checked against their attributes after (see features/content/query-shape.ts).
   */
  const checkQuery = async (uid: UID.ContentType, rawQuery: Record<string, unknown>, auth: Auth) => {
    const query: Record<string, unknown> = {};
    for (const key of QUERY_KEYS) if (rawQuery[key] !== undefined) query[key] = rawQuery[key];
    const config = await getService(strapi, 'settings').get();
    checkRelationDepth(getModel, uid, query, {
      maxDepth: config.content.maxRelationDepth,
      nestedToMany: config.content.nestedToMany,
    });
    await strapi.contentAPI.validate.query(query, model(uid), { auth });
    const sanitized = await strapi.contentAPI.sanitize.query(query, model(uid), { auth });
    checkFilterValues(getModel, uid, sanitized.filters);
    return { query, sanitized };
  };

  return { checkQuery };
};
