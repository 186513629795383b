/**
 * Readers (docs/readers.md): the view beacon, popular and related articles, comment counts on articles, JSON-LD of
 * details, the daily counts' retention, and the `views` cache scope that lets popular answers follow the counts.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';
import { uid } from '../../platform/plugin-id';
import { isBeaconBot } from '../../platform/crawlers';
import { errors } from '@strapi/utils';
import { siteOf } from '../discovery';
import { keptByVersion } from '../cache';
import { jsonLdOf } from './json-ld';
import type { Period } from './readers.shapes';
import {
  categoryRowId,
  dailyViews,
  popularRows,
  pruneDays,
  publishedArticleRow,
  publishedDocumentOf,
  relatedRows,
  type RankedRow,
} from './readers.data';

type Auth = unknown;
type Entity = Record<string, unknown>;

const ARTICLE = uid('article');
const NOT_FOUND = { article: 'Article not found', page: 'Page not found' } as const;
const POPULATE = ['category', 'tags', 'cover', 'author'];
const DAY_MS = 86_400_000;
/** Popular answers may lag the counts by at most this (docs/readers.md#popular). */
export const POPULAR_LAG_MS = 60_000;
/** Candidates of related articles ranked by their words (the rest are ranked by tags and category alone). */
const RELATED_CANDIDATES = 200;

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Lowercase words of 4 letters or more, each once. */
export const wordsOf = (text: string) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [])];

const readers = ({ strapi }: { strapi: Core.Strapi }) => {
  let lastRaise = 0;
  let raiseTimer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let pruning: Promise<unknown> | undefined;
  const clock = () => getService(strapi, 'clock').now();
  /**
   * `commentCount` per documentId, and a category's ancestry per documentId and locale, kept until a comment or the
   * content changes (features/cache/kept-by-version.ts: as coherent as the response cache, whatever `cache.enabled`
   * says): an uncached read pays one shared read of the version stamps, not the count's recursive statement or the
   * ancestry's five populate levels (docs/readers.md#measured).
   */
  const commentCounts = keptByVersion<number>(strapi, 4096, ['comments', 'content']);
  const ancestries = keptByVersion<Entity | null>(strapi, 1024, ['content']);
  /**
   * Popular rankings (documentIds and period views) per period start, locale, category and limit, kept under the
   * `content` and `views` stamps: `views` is raised within a minute of a counted read, so a kept ranking lags the counts
   * by at most those 60 seconds, as a cached answer does (docs/readers.md#popular); the articles and their comment
   * counts are still read for each answer.
   */
  const rankings = keptByVersion<RankedRow[]>(strapi, 256, ['content', 'views']);

  /** Articles as the lists show them (sanitized, default relations, `commentCount`), in the order of `documentIds`. */
  const articlesInOrder = async (documentIds: string[], locale: string, auth: Auth): Promise<Entity[]> => {
    if (documentIds.length === 0) return [];
    const found = (await getService(strapi, 'content').findAllPublished(ARTICLE, auth as never, {
      filters: { documentId: { $in: documentIds } },
      sort: [{ publishedAt: 'desc' }],
      populate: POPULATE,
      locale,
    })) as Entity[];
    const byDocument = new Map(found.map((item) => [String(item.documentId), item]));
    const ordered = documentIds.flatMap((documentId): Entity[] => { const item = byDocument.get(documentId); return item ? [item] : []; });
    return service.withCommentCounts(ordered);
  };

  const service = {
    /** `POST /bag/views`: counts a view of the published document unless a bot sent it. */
    async beacon({ type, slug, locale: requested }: { type: 'article' | 'page'; slug: string; locale?: string }, userAgent: string | undefined) {
      const { locale } = await getService(strapi, 'locales').resolve(requested);
      const model = uid(type);
      const documentId = await publishedDocumentOf(strapi, model, slug, locale);
      if (!documentId) throw new errors.NotFoundError(NOT_FOUND[type]);
      const countBots = getService(strapi, 'settings').file().views.countBots;
      if (!countBots && isBeaconBot(userAgent)) return { counted: false };
      const count = await getService(strapi, 'views').increment(model as never, documentId, locale);
      return { counted: count !== null };
    },

    /** Called by every flush of the view counter: popular answers are made stale within POPULAR_LAG_MS. */
    viewsCounted() {
      if (raiseTimer) return;
      const wait = Math.max(0, lastRaise + POPULAR_LAG_MS - clock());
      raiseTimer = setTimeout(() => {
        lastRaise = clock();
        void getService(strapi, 'cache-versions')
          .invalidate('views')
          .catch((error: Error) => strapi.log.warn(`cms-plugin-bag: raising the views cache scope failed: ${error.message}`))
          .finally(() => (raiseTimer = undefined));
      }, wait);
      raiseTimer.unref();
    },

    /** Prunes the daily counts every `intervalSeconds` (started in bootstrap; the timer keeps no process alive). */
    start(intervalSeconds: number) {
      clearInterval(pruneTimer);
      pruneTimer = setInterval(() => {
        if (pruning) return;
        pruning = service
          .prune()
          .catch((error: Error) => strapi.log.warn(`cms-plugin-bag: pruning daily view counts failed: ${error.message}`))
          .finally(() => (pruning = undefined));
      }, Math.min(intervalSeconds * 1000, 2 ** 31 - 1));
      pruneTimer.unref();
    },

    /** Stops the timers, and waits for a prune under way (destroy). */
    async stop() {
      clearTimeout(raiseTimer);
      clearInterval(pruneTimer);
      raiseTimer = pruneTimer = undefined;
      await pruning;
    },

    async popular(query: { period: Period; limit: number; locale?: string; category?: string }, auth: Auth) {
      const { locale } = await getService(strapi, 'locales').resolve(query.locale);
      let categoryId: number | undefined;
      if (query.category) {
        categoryId = await categoryRowId(strapi, query.category, locale);
        if (categoryId === undefined) throw new errors.NotFoundError('Category not found');
      }
      const days = { '1d': 1, '7d': 7, '30d': 30, all: 0 }[query.period];
      // `1d` is today (UTC); `7d` today and the six days before.
      const since = days === 0 ? null : dayOf(clock() - (days - 1) * DAY_MS);
      const key = [since ?? 'all', locale, categoryId ?? '', query.limit].join('\n');
      const version = await rankings.version();
      let rows = rankings.get(version, key);
      if (!rows) {
        rows = await popularRows(strapi, { since, locale, categoryId, limit: query.limit });
        rankings.set(version, key, rows);
      }
      const scores = new Map(rows.map((row) => [row.documentId, row.score]));
      const items = await articlesInOrder(rows.map((row) => row.documentId), locale, auth);
      return { data: items.map((item) => ({ ...item, periodViews: scores.get(String(item.documentId)) ?? 0 })) };
    },

    /** The documentIds of the published articles of `locale` read most in `period`, with their views there. */
    async ranking(period: Period, locale: string, limit: number) {
      const days = { '1d': 1, '7d': 7, '30d': 30, all: 0 }[period];
      return popularRows(strapi, { since: days === 0 ? null : dayOf(clock() - (days - 1) * DAY_MS), locale, limit });
    },

    async related(slug: string, query: { limit: number; locale?: string }, auth: Auth) {
      const { locale } = await getService(strapi, 'locales').resolve(query.locale);
      const me = await publishedArticleRow(strapi, slug, locale);
      if (!me) throw new errors.NotFoundError(NOT_FOUND.article);
      const mine = wordsOf(`${me.title} ${me.summary ?? ''}`);
      // The title's longest words find articles sharing neither tag nor category.
      const seek = [...wordsOf(me.title)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, 5);
      const candidates = (words: string[]) => relatedRows(strapi, { id: me.id, documentId: me.documentId, locale, words, cap: RELATED_CANDIDATES });
      // An article found by a title word alone ranks after every one sharing a tag or the category: the title scan (it
      // reads every published title) runs only when those are fewer than asked for.
      let rows = await candidates([]);
      if (rows.length < query.limit && seek.length > 0) rows = await candidates(seek);
      const scored = rows.map((row, index) => {
        const theirs = new Set(wordsOf(`${row.title} ${row.summary ?? ''}`));
        return { ...row, index, words: mine.filter((word) => theirs.has(word)).length };
      });
      // Tags, then category, then words; equal scores keep the statement's order (newer first, then the higher id).
      scored.sort((a, b) => b.tags - a.tags || b.category - a.category || b.words - a.words || a.index - b.index);
      const chosen = scored.filter((row) => row.tags > 0 || row.category > 0 || row.words > 0).slice(0, query.limit);
      return { data: await articlesInOrder(chosen.map((row) => row.documentId), locale, auth) };
    },

    /** `commentCount` (approved, not deleted) on each article: the ones not kept, in one statement for all of them. */
    async withCommentCounts(items: Entity[]): Promise<Entity[]> {
      if (items.length === 0) return items;
      const version = await commentCounts.version();
      const counts = new Map<string, number>();
      const missing: string[] = [];
      for (const item of items) {
        const key = String(item.documentId);
        const kept = commentCounts.get(version, key);
        if (kept === undefined) missing.push(key);
        else counts.set(key, kept);
      }
      if (missing.length > 0) {
        const keys = [...new Set(missing)];
        const read = await getService(strapi, 'comment-threads').counts(keys.map((key) => ({ key, id: key })));
        for (const key of keys) {
          counts.set(key, read[key] ?? 0);
          commentCounts.set(version, key, read[key] ?? 0);
        }
      }
      return items.map((item) => ({ ...item, commentCount: counts.get(String(item.documentId)) ?? 0 }));
    },

    /** A detail's `meta`: its JSON-LD (null while `site.url` is unset). */
    async detailMeta(kind: 'article' | 'page', entity: Entity) {
      const config = await getService(strapi, 'settings').get();
      if (!config.site.url) return { jsonLd: null };
      const { defaultLocale } = await getService(strapi, 'locales').resolve(undefined);
      const site = siteOf(strapi, config, defaultLocale);
      let category: Entity | null = null;
      const linked = entity.category as Entity | null | undefined;
      if (kind === 'article' && linked?.documentId) {
        const key = `${String(linked.documentId)}\n${String(entity.locale)}`;
        const version = await ancestries.version();
        const kept = ancestries.get(version, key);
        if (kept !== undefined) category = kept;
        else {
          // The category's ancestors, five levels up (one query).
          const populate = [1, 2, 3, 4].reduce<Record<string, unknown>>((inner) => ({ parent: { fields: ['title', 'slug'], populate: inner } }), { parent: { fields: ['title', 'slug'] } });
          category = (await strapi.documents(uid('category') as never).findOne({
            documentId: String(linked.documentId),
            locale: String(entity.locale),
            status: 'published',
            fields: ['title', 'slug'],
            populate,
          } as never)) as Entity | null;
          ancestries.set(version, key, category);
        }
      }
      return { jsonLd: jsonLdOf(kind, entity, site, category) };
    },

    /** The document's views per day over the last `days` days (UTC), today included, zeros filled in. */
    async series(kind: 'article' | 'page', documentId: string, days = 30) {
      const now = clock();
      const since = dayOf(now - (days - 1) * DAY_MS);
      const rows = new Map((await dailyViews(strapi, kind, documentId, since)).map((row) => [row.day, row.views]));
      return Array.from({ length: days }, (_, index) => {
        const day = dayOf(now - (days - 1 - index) * DAY_MS);
        return { day, views: rows.get(day) ?? 0 };
      });
    },

    /** Removes the daily counts older than `views.retention`; the number removed. */
    async prune() {
      const retention = getService(strapi, 'settings').file().views.retention;
      return pruneDays(strapi, dayOf(clock() - retention * 1000));
    },
  };
  return service;
};

export type ReadersService = ReturnType<typeof readers>;
export default readers;
