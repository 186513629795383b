/**
 * Public reads of published documents with the host's REST query parameters, checked and sanitized exactly like
 * the host's own REST controllers (validate.query → sanitize.query → Document Service → sanitize.output).
 */
import type { Core, UID } from '@strapi/strapi';
import { errors, pagination as paging } from '@strapi/utils';
import { getService } from '../utils/get-service';
import { checkFilterValues, checkRelationDepth } from '../utils/query-shape';
import { isRecord } from '../utils/is-record';

const USER_UID = 'plugin::users-permissions.user';
const QUERY_KEYS = ['filters', 'sort', 'fields', 'populate', 'pagination'] as const;
const POPULATABLE = new Set(['relation', 'media', 'component', 'dynamiczone']);
/** Never populated under /api/bag: comments have their own endpoint, which lists approved ones only. */
const COMMENT_UID = 'plugin::cms-plugin-bag.comment';
const PUBLIC_USER_FIELDS = new Set(['id', 'documentId', 'username']);

export type Auth = unknown;
type Populate = Record<string, unknown>;
type SortOrder = Record<string, 'asc' | 'desc'>;
type Attribute = { type: string; target?: string };

export interface PublicUser {
  id: number;
  documentId: string;
  username: string;
}

export interface ListOptions {
  /** Used when the request has no `populate`. */
  defaultPopulate: string[];
  /** Used when the request has no `sort`. */
  defaultSort: SortOrder[];
}

/**
 * The detail reads (`GET /api/bag/articles/:slug`, `/pages/:slug`, GraphQL `bagArticle`, `bagPage`): the type, what
 * it populates and what its 404 says. The list routes populate the same relations by default.
 */
export const DETAILS = {
  article: { uid: 'plugin::cms-plugin-bag.article', populate: ['category', 'tags', 'cover', 'author'], notFound: 'Article not found' },
  page: { uid: 'plugin::cms-plugin-bag.page', populate: ['cover'], notFound: 'Page not found' },
} as const satisfies Record<string, { uid: UID.ContentType; populate: string[]; notFound: string }>;

export type DetailKind = keyof typeof DETAILS;

/**
 * Options every public read will take. `locale` is accepted and passed down by GraphQL already, but not read yet:
 * it takes effect with the locales feature (CONTRACT.md §7), in this one place for REST and GraphQL alike.
 */
export interface ReadOptions {
  locale?: string;
}

export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  start?: number;
  limit?: number;
}

/** A user as shown anywhere under /api/bag. */
export const publicUser = (user: unknown): PublicUser | null => {
  if (!user || typeof user !== 'object') return null;
  const { id, documentId, username } = user as PublicUser;
  return { id, documentId, username };
};

const listOf = (value: unknown): unknown[] =>
  typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];

const PAGINATION_FIELDS = { page: 1, pageSize: 1, start: 0, limit: -1 } as const;

/** Pagination values must be integers: a malformed one is the caller's mistake, a 400. */
function parsePagination(raw: unknown): Partial<Record<keyof typeof PAGINATION_FIELDS, number>> {
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

const content = ({ strapi }: { strapi: Core.Strapi }) => {
  const model = (uid: UID.ContentType) => strapi.getModel(uid);

  const userRelations = (uid: UID.ContentType) =>
    Object.entries(model(uid).attributes)
      .filter(([, attribute]) => attribute.type === 'relation' && (attribute as { target?: string }).target === USER_UID)
      .map(([name]) => name);

  /** Top-level populate as an object, from any of the host's forms (`*`, `a,b`, `[a, b]`, `{ a: … }`). */
  const populateObject = (uid: UID.ContentType, populate: unknown): Populate => {
    if (populate === undefined || populate === null || populate === false) return {};
    if (populate === '*' || populate === true) {
      return Object.fromEntries(
        Object.entries(model(uid).attributes)
          .filter(([, attribute]) => POPULATABLE.has(attribute.type))
          .map(([name]) => [name, true])
      );
    }
    if (typeof populate === 'string') return populateObject(uid, populate.split(','));
    if (Array.isArray(populate)) {
      const result: Populate = {};
      for (const entry of populate) {
        if (typeof entry !== 'string') continue;
        const [head, ...rest] = entry.trim().split('.');
        if (!head) continue;
        result[head] = rest.length > 0 ? { populate: rest.join('.') } : true;
      }
      return result;
    }
    return isRecord(populate) ? { ...populate } : {};
  };

  const relationTarget = (uid: UID.ContentType, name: string) => {
    const attribute = model(uid).attributes[name] as Attribute | undefined;
    return attribute?.type === 'relation' ? (attribute.target as UID.ContentType | undefined) : undefined;
  };

  /** Refuses, at any depth, a populate that asks a user relation for more than `{ id, documentId, username }`. */
  const checkUserPopulate = (uid: UID.ContentType, populate: unknown, path: string) => {
    for (const [name, value] of Object.entries(populateObject(uid, populate))) {
      const target = relationTarget(uid, name);
      const here = path ? `${path}.${name}` : name;
      if (!target || !isRecord(value)) continue;
      if (target === USER_UID) {
        const extra =
          listOf(value.fields).map((field) => String(field).trim()).find((field) => !PUBLIC_USER_FIELDS.has(field)) ??
          (value.populate === undefined ? undefined : 'populate');
        if (extra) throw new errors.ValidationError(`Invalid key ${extra}`, { key: extra, path: here, source: 'query', param: 'populate' });
      } else if (value.populate !== undefined) {
        checkUserPopulate(target, value.populate, here);
      }
    }
  };

  /** At any depth: users fetched with `username` only, comments never. */
  const restrictPopulate = (uid: UID.ContentType, populate: Populate): Populate => {
    for (const [name, value] of Object.entries(populate)) {
      const target = relationTarget(uid, name);
      if (target === COMMENT_UID) delete populate[name];
      else if (target === USER_UID) populate[name] = { fields: ['username'] };
      else if (target && isRecord(value) && value.populate !== undefined) {
        populate[name] = { ...value, populate: restrictPopulate(target, populateObject(target, value.populate)) };
      }
    }
    return populate;
  };

  /**
   * The populate sent to the Document Service: the request's (sanitized) or the default. A top-level user relation
   * is fetched when asked for even if the role cannot read users (the host's sanitizer would drop it): an author is
   * public here, as `{ id, documentId, username }`.
   */
  const effectivePopulate = (uid: UID.ContentType, requested: unknown, sanitized: unknown, defaults: string[]) => {
    if (requested !== undefined) checkUserPopulate(uid, requested, '');
    const wanted = populateObject(uid, requested === undefined ? defaults : requested);
    const populate = requested === undefined ? { ...wanted } : populateObject(uid, sanitized);
    for (const name of userRelations(uid)) if (name in wanted) populate[name] = true;
    return restrictPopulate(uid, populate);
  };

  /**
   * Sanitizes entities for `auth` in one pass of the host's sanitizer; user relations bypass the role check and are
   * cut to the public shape.
   */
  const sanitizeMany = async (uid: UID.ContentType, entities: Record<string, unknown>[], auth: Auth) => {
    const relations = userRelations(uid);
    const users = entities.map((entity) => {
      const shown: Record<string, unknown> = {};
      for (const name of relations) if (name in entity) shown[name] = publicUser(entity[name]);
      return shown;
    });
    const rest = entities.map((entity) => {
      const copy = { ...entity };
      for (const name of relations) delete copy[name];
      return copy;
    });
    const sanitized = (await strapi.contentAPI.sanitize.output(rest, model(uid), { auth })) as Record<string, unknown>[];
    return sanitized.map((entity, index) => ({ ...entity, ...users[index] }));
  };

  const getModel = (name: string) => strapi.getModel(name as UID.Schema) as never;

  /**
   * The host's validation and sanitization, with the relation depth capped first (content.maxRelationDepth) and
   * the filter values checked against their attributes after (see utils/query-shape.ts).
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

  return {
    /** A page of published documents: `{ data, meta: { pagination } }`. */
    async findPublished(uid: UID.ContentType, rawQuery: Record<string, unknown>, auth: Auth, options: ListOptions) {
      const { query, sanitized } = await checkQuery(uid, rawQuery, auth);
      const requested = parsePagination(query.pagination);
      const isPaged = !('start' in requested || 'limit' in requested);
      const maxLimit = Number(strapi.config.get('api.rest.maxLimit')) || -1;
      const defaultLimit = Number(strapi.config.get('api.rest.defaultLimit', 25));
      const { start, limit } = paging.withDefaultPagination(requested, {
        defaults: { offset: { limit: defaultLimit }, page: { pageSize: defaultLimit } },
        maxLimit,
      }) as { start: number; limit: number };

      const params = {
        filters: sanitized.filters as never,
        sort: (query.sort === undefined ? options.defaultSort : sanitized.sort) as never,
        fields: sanitized.fields as never,
        populate: effectivePopulate(uid, query.populate, sanitized.populate, options.defaultPopulate) as never,
        status: 'published' as const,
      };
      const documents = strapi.documents(uid);
      const [results, total] = await Promise.all([
        documents.findMany({ ...params, start, limit } as never),
        documents.count({ filters: params.filters, status: 'published' } as never),
      ]);

      const paged = paging.transformPagedPaginationInfo({ start, limit }, total);
      const pagination: Pagination = isPaged
        ? paged
        : { ...paging.transformOffsetPaginationInfo({ start, limit }, total), ...paged };
      return { data: await sanitizeMany(uid, results as Record<string, unknown>[], auth), meta: { pagination } };
    },

    /** The published document with this slug, sanitized; null when there is none. */
    async findPublishedBySlug(uid: UID.ContentType, slug: string, auth: Auth, defaultPopulate: string[]) {
      const entity = await strapi.documents(uid).findFirst({
        filters: { slug: { $eq: slug } } as never,
        populate: effectivePopulate(uid, undefined, undefined, defaultPopulate) as never,
        status: 'published',
      });
      return entity ? (await sanitizeMany(uid, [entity as Record<string, unknown>], auth))[0] : null;
    },

    /** `findPublishedBySlug` that also counts a view, showing the count that includes this read. */
    async viewPublishedBySlug(uid: UID.ContentType, slug: string, auth: Auth, defaultPopulate: string[]) {
      const entity = await this.findPublishedBySlug(uid, slug, auth, defaultPopulate);
      if (!entity) return null;
      const counted = await getService(strapi, 'views').increment(uid, String(entity.documentId));
      return counted === null ? entity : { ...entity, views: counted };
    },

    /** The detail of `kind` with this slug, counting a view (`Article not found` / `Page not found` otherwise). */
    async viewDetail(kind: DetailKind, slug: string, auth: Auth, _options: ReadOptions = {}) {
      const { uid, populate, notFound } = DETAILS[kind];
      const entity = await this.viewPublishedBySlug(uid, slug, auth, [...populate]);
      if (!entity) throw new errors.NotFoundError(notFound);
      return entity;
    },

    /** Every published document matching `filters`, in `sort` order, sanitized. */
    async findAllPublished(
      uid: UID.ContentType,
      auth: Auth,
      { filters, sort, populate }: { filters?: Record<string, unknown>; sort: SortOrder[]; populate: string[] }
    ) {
      const results = await strapi.documents(uid).findMany({
        filters: filters as never,
        sort: sort as never,
        populate: effectivePopulate(uid, undefined, undefined, populate) as never,
        status: 'published',
      });
      return sanitizeMany(uid, results as Record<string, unknown>[], auth);
    },
  };
};

export type ContentService = ReturnType<typeof content>;
export default content;
