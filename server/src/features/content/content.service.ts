/**
 * Public reads of published documents (query checks: query-checks.ts; populate policy: populate-policy.ts) with the host's REST query parameters, checked and sanitized exactly like
 * the host's own REST controllers (validate.query → sanitize.query → Document Service → sanitize.output).
 */
import type { Core, UID } from '@strapi/strapi';
import { errors, pagination as paging } from '@strapi/utils';
import { publicAuthor } from '../../platform/users';
import { publishedLocalizations } from './localizations.data';
import { keptByVersion } from '../cache';
import { getService } from '../../platform/get-service';
import { reversedOrder } from './list-order';
import type { MovedTo } from '../redirects/redirects.service';
import { populatePolicy } from './populate-policy';
import { parsePagination, queryChecks, type Auth } from './query-checks';
import { flatTree, populatedTree, sanitizeByExample, type RelationTree } from './output-projection';
import { relationReads } from './relation-reads';

export type { Auth } from './query-checks';
type SortOrder = Record<string, 'asc' | 'desc'>;

export interface ListOptions extends ReadOptions {
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
 * Options of every public read: `locale` as the request gave it (REST query parameter, GraphQL argument), resolved
 * here for REST and GraphQL alike: absent → the host's default locale, unknown → 400 `Unknown locale supplied`.
 */
export interface ReadOptions {
  locale?: unknown;
}

/** Adds one view to a document and returns its new count, null when it has no row (features/content/views.ts `increment`). */
export type ViewCounter = (uid: UID.ContentType, documentId: string, locale?: string) => Promise<number | null>;

/** Options of a detail read: ReadOptions, and how it counts its view (REST: every read adds one). */
export interface DetailOptions extends ReadOptions {
  countView?: ViewCounter;
}

export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
  start?: number;
  limit?: number;
}

const content = ({ strapi }: { strapi: Core.Strapi }) => {
  const model = (uid: UID.ContentType) => strapi.getModel(uid);
  const { userRelations, effectivePopulate } = populatePolicy(strapi);
  const { checkQuery } = queryChecks(strapi);
  const relations = relationReads(strapi);
  /** A list's total without filters, per type and locale, kept until the content changes (on any instance). */
  const totals = keptByVersion<number>(strapi, 256);

  /**
   * How many published documents of `uid` in `locale` match `filters`. Without filters the count is kept per
   * content version: the list's first pages then cost the same at any number of documents.
   */
  const countPublished = async (uid: UID.ContentType, filters: unknown, locale: string): Promise<number> => {
    const count = () => strapi.documents(uid).count({ filters, status: 'published', locale } as never);
    const filtered = filters !== undefined && filters !== null && !(typeof filters === 'object' && Object.keys(filters).length === 0);
    if (filtered) return count();
    const version = await totals.version();
    const key = `${uid}\u0000${locale}`;
    const kept = totals.get(version, key);
    if (kept !== undefined) return kept;
    const total = await count();
    totals.set(version, key, total);
    return total;
  };

  /**
   * Sanitizes entities for `auth` in one pass of the host's sanitizer; user relations bypass the role check and are
   * cut to the public shape.
   */
  const sanitizeMany = async (uid: UID.ContentType, entities: Record<string, unknown>[], auth: Auth, read?: RelationTree | null) => {
    const relations = userRelations(uid);
    const users = entities.map((entity) => {
      const shown: Record<string, unknown> = {};
      for (const name of relations) if (name in entity) shown[name] = publicAuthor(entity[name]);
      return shown;
    });
    const rest = entities.map((entity) => {
      const copy = { ...entity };
      for (const name of relations) delete copy[name];
      return copy;
    });
    const sanitized = (read && rest.length > 1 && (await sanitizeByExample(strapi, model(uid), rest, auth, read))) ||
      ((await strapi.contentAPI.sanitize.output(rest, model(uid), { auth })) as Record<string, unknown>[]);
    return sanitized.map((entity, index) => ({ ...entity, ...users[index] }));
  };

  const resolveLocale = (requested: unknown) => getService(strapi, 'locales').resolve(requested);

  return {
    /** A page of published documents: `{ data, meta: { pagination } }`. */
    async findPublished(uid: UID.ContentType, rawQuery: Record<string, unknown>, auth: Auth, options: ListOptions) {
      const { locale } = await resolveLocale(options.locale);
      const { query, sanitized } = await checkQuery(uid, rawQuery, auth);
      const requested = parsePagination(query.pagination);
      const isPaged = !('start' in requested || 'limit' in requested);
      const maxLimit = Number(strapi.config.get('api.rest.maxLimit')) || -1;
      const defaultLimit = Number(strapi.config.get('api.rest.defaultLimit', 25));
      const { start, limit } = paging.withDefaultPagination(requested, {
        defaults: { offset: { limit: defaultLimit }, page: { pageSize: defaultLimit } },
        maxLimit,
      }) as { start: number; limit: number };

      const populate = effectivePopulate(uid, query.populate, sanitized.populate, options.defaultPopulate);
      // The default populate is read by relation-reads.ts when it can read it as the host would; a requested one
      // goes to the Document Service.
      const steps = query.populate === undefined ? relations.plan(uid, populate) : null;
      const params = {
        filters: sanitized.filters as never,
        sort: (query.sort === undefined ? options.defaultSort : sanitized.sort) as never,
        fields: sanitized.fields as never,
        ...(steps ? {} : { populate: populate as never }),
        status: 'published' as const,
        locale,
      };
      const documents = strapi.documents(uid);
      const forward = () => documents.findMany({ ...params, start, limit } as never) as Promise<Record<string, unknown>[]>;
      const counted = countPublished(uid, params.filters, locale);
      // A page past the middle is read backwards from the end (list-order.ts), which needs the total first.
      const reversed = start > 0 && limit > 0 ? reversedOrder(strapi, uid, params.sort) : null;
      let results: Record<string, unknown>[];
      let total: number;
      if (!reversed) {
        [results, total] = await Promise.all([forward(), counted]);
      } else {
        total = await counted;
        const fromEnd = total - start - limit;
        if (fromEnd >= start) results = await forward();
        else {
          const take = limit + Math.min(0, fromEnd);
          results =
            take > 0
              ? ((await documents.findMany({ ...params, sort: reversed, start: Math.max(0, fromEnd), limit: take } as never)) as Record<string, unknown>[]).reverse()
              : [];
        }
      }
      // The default populate, read for the page's documents at once (relation-reads.ts).
      if (steps) results = (await relations.populate(results, steps)) as Record<string, unknown>[];

      const paged = paging.transformPagedPaginationInfo({ start, limit }, total);
      const pagination: Pagination = isPaged
        ? paged
        : { ...paging.transformOffsetPaginationInfo({ start, limit }, total), ...paged };
      // What was populated, for the sanitizer's one example document (output-projection.ts); user relations are shown apart.
      const read = steps
        ? flatTree(steps.map((step) => step.name))
        : populatedTree(strapi, model(uid), populate, new Set(userRelations(uid)));
      return { data: await sanitizeMany(uid, results, auth, read), meta: { pagination } };
    },

    /** The published document with this slug in `locale` (the default locale when absent), sanitized; null when there is none. */
    async findPublishedBySlug(uid: UID.ContentType, slug: string, auth: Auth, defaultPopulate: string[], locale?: string) {
      const populate = effectivePopulate(uid, undefined, undefined, defaultPopulate);
      // Its relations are read as a list's are (relation-reads.ts), when they can be.
      const steps = relations.plan(uid, populate);
      const found = (await strapi.documents(uid).findFirst({
        filters: { slug: { $eq: slug } } as never,
        ...(steps ? {} : { populate: populate as never }),
        status: 'published',
        ...(locale === undefined ? {} : { locale }),
      })) as Record<string, unknown> | null;
      if (!found) return null;
      const [entity] = steps ? await relations.populate([found], steps) : [found];
      return (await sanitizeMany(uid, [entity], auth))[0];
    },

    /** `findPublishedBySlug` that also counts a view (`countView`), showing the count that includes this read. */
    async viewPublishedBySlug(
      uid: UID.ContentType,
      slug: string,
      auth: Auth,
      defaultPopulate: string[],
      locale?: string,
      countView: ViewCounter = (type, documentId, inLocale) => getService(strapi, 'views').increment(type, documentId, inLocale),
    ) {
      const entity = await this.findPublishedBySlug(uid, slug, auth, defaultPopulate, locale);
      if (!entity) return null;
      const counted = await countView(uid, String(entity.documentId), typeof entity.locale === 'string' ? entity.locale : locale);
      return counted === null ? entity : { ...entity, views: counted };
    },

    /**
     * The detail of `kind` with this slug in the requested locale, counting a view (`Article not found` / `Page not
     * found` otherwise). With `content.localeFallback`, a slug the locale does not have is looked up in the default
     * locale, whose version is served (its `locale` says so). `localizations` lists the document's other published
     * locales.
     */
    async viewDetail(kind: DetailKind, slug: string, auth: Auth, options: DetailOptions = {}) {
      return (await this.resolveDetail(kind, slug, auth, { ...options, followRedirects: false })).data;
    },

    /**
     * `viewDetail`, or where the slug moved: a slug that no published document has in the requested locale but that
     * one had there before answers `{ redirect }` (docs/redirects.md) and counts no view. The live document comes
     * first (a slug taken again is its new document's), then the locale's old slugs, then `content.localeFallback`.
     */
    async resolveDetail(
      kind: DetailKind,
      slug: string,
      auth: Auth,
      options: DetailOptions & { followRedirects?: boolean } = {},
    ): Promise<{ data: Record<string, unknown>; redirect?: undefined } | { data?: undefined; redirect: MovedTo }> {
      const { uid, populate, notFound } = DETAILS[kind];
      const { locale, defaultLocale } = await resolveLocale(options.locale);
      let entity = await this.viewPublishedBySlug(uid, slug, auth, [...populate], locale, options.countView);
      if (!entity && options.followRedirects !== false) {
        const redirect = await getService(strapi, 'redirects').find(kind, slug, locale);
        if (redirect) return { redirect };
      }
      if (!entity && locale !== defaultLocale && (await getService(strapi, 'settings').get()).content.localeFallback) {
        entity = await this.viewPublishedBySlug(uid, slug, auth, [...populate], defaultLocale, options.countView);
      }
      if (!entity) throw new errors.NotFoundError(notFound);
      const servedLocale = typeof entity.locale === 'string' ? entity.locale : locale;
      const localizations = await publishedLocalizations(strapi, uid, String(entity.documentId), servedLocale);
      return { data: { ...entity, locale: servedLocale, localizations } };
    },

    /** Every published document of the requested locale matching `filters`, in `sort` order, sanitized. */
    async findAllPublished(
      uid: UID.ContentType,
      auth: Auth,
      {
        filters,
        sort,
        populate,
        locale: requested,
      }: { filters?: Record<string, unknown>; sort: SortOrder[]; populate: string[] } & ReadOptions
    ) {
      const { locale } = await resolveLocale(requested);
      const results = await strapi.documents(uid).findMany({
        filters: filters as never,
        sort: sort as never,
        populate: effectivePopulate(uid, undefined, undefined, populate) as never,
        status: 'published',
        locale,
      });
      return sanitizeMany(uid, results as Record<string, unknown>[], auth);
    },
  };
};

export type ContentService = ReturnType<typeof content>;
export default content;
