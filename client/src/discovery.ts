/**
 * Discovery under `/api/bag`: full-text search of published articles, and the addresses of the feeds and the
 * sitemap. Feeds and sitemaps are given as URLs, not fetched: feed readers and crawlers fetch them.
 */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/search/search.shapes';
import { localeQuery, type ReadOptions } from './locale';
import { withQuery } from './query';
import type { Session } from './session';

/**
 * One search result. `highlight.title` and `highlight.excerpt` are HTML: the server escapes every character of the
 * text and adds only `<mark>…</mark>` around the matches, so they may be set as `innerHTML`.
 */
export type SearchHit = z.infer<typeof shapes.searchHit>;
/** A page of search results, best first, and its pagination. */
export type SearchResult = z.infer<typeof shapes.searchResult>;

/** One title of `suggest`: an article's or a page's. */
export type Suggestion = z.infer<typeof shapes.suggestResult>['data'][number];

/** Options of `search`: filters, page and locale (the client's default applies). */
export interface SearchOptions extends ReadOptions {
  /** Slug of a category: only its articles (not its sub-categories). Unknown → 404 `Category not found`. */
  category?: string;
  /** Slug of a tag: only articles carrying it. Unknown → 404 `Tag not found`. */
  tag?: string;
  /** Page from 1. */
  page?: number;
  /** Results per page; 10 by default, at most 100. */
  pageSize?: number;
  /** `articles` (default), `pages` or `all` (each hit then carries `type`). */
  type?: 'articles' | 'pages' | 'all';
  /** `false` turns typo tolerance off. */
  typos?: boolean;
  /** Counts over every hit in `meta.facets`. */
  facets?: ('category' | 'tag' | 'locale')[];
}

export type FeedFormat = 'rss' | 'atom' | 'json';

/** Which articles a feed holds: a locale (the client's default applies), a category or a tag (slugs). */
export interface FeedOptions extends ReadOptions {
  category?: string;
  tag?: string;
}

const FEED_FORMATS: readonly FeedFormat[] = ['rss', 'atom', 'json'];

export function discoveryCalls({ request, absoluteUrl, locale: fallback }: Session) {
  return {
    /**
     * Searches the published articles of one locale (`GET /api/bag/search`). `q` is plain text (1–200 characters;
     * no query syntax); an empty or too long `q` throws a `CmsBagError` 400 whose `details.errors[0].path` is `['q']`.
     */
    search: (q: string, options: SearchOptions = {}) => {
      const { category, tag, page, pageSize, type, typos, facets } = options;
      return request<SearchResult>(
        withQuery('/api/bag/search', {
          q,
          category,
          tag,
          type,
          typos: typos === undefined ? undefined : String(typos),
          facets: facets?.length ? facets.join(',') : undefined,
          ...(page !== undefined || pageSize !== undefined ? { pagination: { page, pageSize } } : {}),
          ...localeQuery(fallback, options),
        })
      );
    },
    /**
     * Up to 10 published titles (articles and pages) whose words start with the words of `q` (2–100 characters;
     * `GET /api/bag/search/suggest`), for a search box that completes as the reader types.
     */
    suggest: (q: string, options: ReadOptions = {}) =>
      request<{ data: Suggestion[] }>(withQuery('/api/bag/search/suggest', { q, ...localeQuery(fallback, options) })),
    /**
     * The absolute URL of the articles feed in `format` (RSS 2.0, Atom 1.0 or JSON Feed 1.1), for a
     * `<link rel="alternate">` or a subscribe link. The server answers 503 until the plugin's `site.url` is set.
     */
    feedUrl: (format: FeedFormat, options: FeedOptions = {}) => {
      if (!FEED_FORMATS.includes(format)) throw new TypeError(`Unknown feed format: ${String(format)}`);
      const { category, tag } = options;
      return absoluteUrl(withQuery(`/api/bag/feeds/articles.${format}`, { ...localeQuery(fallback, options), category, tag }));
    },
    /**
     * The absolute URL of the sitemap (every locale), or of its page `page` (from 1) when it is split into a sitemap
     * index. The server answers 503 until the plugin's `site.url` is set.
     */
    sitemapUrl: (page?: number) => {
      if (page === undefined) return absoluteUrl('/api/bag/sitemap.xml');
      if (!Number.isInteger(page) || page < 1) throw new RangeError(`Sitemap page must be a positive integer: ${page}`);
      return absoluteUrl(`/api/bag/sitemaps/${page}.xml`);
    },
  };
}
