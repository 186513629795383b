/**
 * The sections of what the plugin serves and how: content queries, the site (feeds, sitemap, links), redirects, the
 * response cache, GraphQL limits and rate limits.
 */
import { z } from 'zod/v4';
import { duration, durationOrZero, limit, section } from './fields';

export const deliverySections = {
  content: section({
    /** Relation hops allowed in `populate`, `filters` and `sort` of the public lists (features/content/query-shape.ts). */
    maxRelationDepth: z.number().int().min(1).max(10).default(2),
    /** Whether a to-many relation may follow another relation there (`tags.articles`, `category.articles`). */
    nestedToMany: z.boolean().default(false),
    /**
     * A detail (`/articles/:slug`, `/pages/:slug`, `/menus/:slug`) whose slug the requested locale does not have
     * is looked up in the default locale (its `locale` says so). Lists never fall back.
     */
    localeFallback: z.boolean().default(false),
  }),
  site: section({
    /** The public front end's origin; feeds and sitemap answer 503 `Site URL is not configured` while unset. */
    url: z.string().url().optional(),
    title: z.string().default(''),
    description: z.string().default(''),
    /** Front-end paths of documents; `{slug}`, `{locale}` and `{localePrefix}` (`/<locale>`, empty in the default locale) are replaced. */
    paths: section({
      article: z.string().min(1).default('/articles/{slug}'),
      page: z.string().min(1).default('/{slug}'),
      category: z.string().min(1).default('/categories/{slug}'),
      tag: z.string().min(1).default('/tags/{slug}'),
    }),
  }),
  redirects: section({
    /** Old slugs of articles and pages answer 301 to the current one (docs/redirects.md); editors' redirects are listed either way. */
    enabled: z.boolean().default(true),
  }),
  views: section({
    /** Crawlers' and bots' requests count views too (docs/readers.md#what-counts). */
    countBots: z.boolean().default(false),
    /** Daily view counts older than this are removed; the totals stay (docs/readers.md). */
    retention: duration('400d'),
  }),
  feeds: section({ size: z.number().int().min(1).max(100).default(20) }),
  sitemap: section({ pageSize: z.number().int().min(1).max(50000).default(50000) }),
  cache: section({
    /** The server-side cache of anonymous GET responses under /api/bag (docs/caching.md). */
    enabled: z.boolean().default(true),
    /**
     * Memory bound per process: the size of the one region the cached bodies are kept in (at most a `Buffer`'s largest,
     * 4 GiB), and what the entries may cost in all; least recently used entries go first.
     */
    maxBytes: z
      .number()
      .int()
      .min(0)
      .max(4 * 1024 ** 3)
      .default(64 * 1024 * 1024),
    /** `Cache-Control` of anonymous responses (seconds); all 0 → `public, no-cache`. */
    http: section({ maxAge: durationOrZero(0), sMaxAge: durationOrZero(0), staleWhileRevalidate: durationOrZero(0) }),
  }),
  graphql: section({
    /**
     * With the host's GraphQL plugin: root fields returning the plugin's types one operation may hold (each
     * alias counts) and its estimated cost (features/graphql/operation-limits.ts); the depth limit is the host's.
     */
    maxRootFields: z.number().int().min(1).max(1000).default(20),
    maxCost: z.number().int().min(1).default(20000),
  }),
  /** Newsletters (docs/newsletters.md): subscriptions, sends, their delivery in batches claimed in the database. */
  newsletters: section({
    /** Off: the newsletter routes answer 404 `Newsletters are disabled` and nothing is sent. */
    enabled: z.boolean().default(true),
    /** A subscription by e-mail address alone waits for the link mailed to it. */
    doubleOptIn: z.boolean().default(true),
    /** How long the confirmation link works. */
    confirmWindow: duration('2d'),
    /** Recipients one instance claims at a time. */
    batchSize: z.number().int().min(1).max(1000).default(100),
    /** Sender of newsletter mails; unset: the e-mail plugin's default sender. */
    from: z.string().min(1).optional(),
  }),
  rateLimit: section({
    enabled: z.boolean().default(true),
    login: limit('1m', 10),
    register: limit('1m', 10),
    sendCode: limit('1h', 20),
    captchaImage: limit('1m', 30),
    refreshToken: limit('1m', 60),
    comment: limit('1m', 5),
    reaction: limit('1m', 30),
    report: limit('1h', 10),
    views: limit('1m', 120),
    purgeInterval: duration('10m'),
  }),
};
