/**
 * What the search index's schema and queries share: table names, highlight markers, the article table's columns,
 * dialect helpers.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

export const ARTICLE = uid('article');
export const CATEGORY = uid('category');
export const TAG = uid('tag');
export const PAGE = uid('page');

export const FTS_EN = 'bag_search_fts';
export const FTS_PLAIN = 'bag_search_fts_plain';
export const PG_TABLE = 'bag_search_index';
/**
 * SQLite: a narrow index of the article table, (id, locale, published_at), through which a search checks each match's
 * locale and publication and sorts its ties (`INDEXED BY`) instead of reading the whole ~2 KB article row: 1,700
 * matches among 100,000 articles cost 0.6 ms that way against 3 ms. Not `bag_idx_` (the benchmark drops those).
 */
export const SQLITE_ARTICLE_INDEX = 'bag_search_articles';
/**
 * Markers around a match in the highlights the queries return, and nowhere else (the text's own control characters
 * are dropped, see ./marks); the service turns them into `<mark>` after escaping the text.
 */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

/** Language codes → PostgreSQL text-search configurations (used when the database has that configuration). */
export const PG_CONFIGS: Record<string, string> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english',
  fi: 'finnish', fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian',
  ga: 'irish', it: 'italian', lt: 'lithuanian', ne: 'nepali', nb: 'norwegian', nn: 'norwegian', no: 'norwegian',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil',
  tr: 'turkish', yi: 'yiddish',
};

export type RawRow = Record<string, unknown>;
export const rowsOf = (result: unknown): RawRow[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as RawRow[];

export const isPostgres = (strapi: Core.Strapi) => strapi.db.dialect.client === 'postgres';
export const knex = (strapi: Core.Strapi): Knex => strapi.db.connection;
export const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The article table and the columns the index reads. */
export const articleSchema = (strapi: Core.Strapi) => {
  const { table, column } = tableOf(strapi, ARTICLE);
  const meta = strapi.db.metadata.get(ARTICLE);
  const link = (attribute: string) => {
    const { joinTable } = meta.attributes[attribute] as unknown as {
      joinTable: { name: string; joinColumn: { name: string }; inverseJoinColumn: { name: string } };
    };
    return { table: joinTable.name, article: joinTable.joinColumn.name, target: joinTable.inverseJoinColumn.name };
  };
  return {
    table: q(table),
    id: q('id'),
    documentId: q(column('documentId')),
    slug: q(column('slug')),
    title: q(column('title')),
    summary: q(column('summary')),
    content: q(column('content')),
    publishedAt: q(column('publishedAt')),
    locale: q(column('locale')),
    category: link('category'),
    tags: link('tags'),
  };
};

export type SourceKind = 'article' | 'page';

/**
 * What the index keeps per searched type (docs/search.md#the-index-and-how-it-follows-writes): articles by title,
 * summary and content; pages by title, SEO description and content. Each has its FTS5 tables (English and other
 * locales), a contentless FTS5 table of its unstemmed words whose `fts5vocab` is the typo vocabulary, and a narrow
 * index of its rows on SQLite; a tsvector table on PostgreSQL (the words go to the shared `bag_search_words`).
 */
export const sourceOf = (strapi: Core.Strapi, kind: SourceKind) => {
  const page = kind === 'page';
  const { table, column } = tableOf(strapi, page ? PAGE : ARTICLE);
  return {
    kind,
    table: q(table),
    id: q('id'),
    documentId: q(column('documentId')),
    slug: q(column('slug')),
    title: q(column('title')),
    summary: q(column(page ? 'seoDescription' : 'summary')),
    content: q(column('content')),
    publishedAt: q(column('publishedAt')),
    locale: q(column('locale')),
    ftsEn: page ? FTS_PAGES_EN : FTS_EN,
    ftsPlain: page ? FTS_PAGES_PLAIN : FTS_PLAIN,
    words: page ? 'bag_search_pages_words' : 'bag_search_words',
    vocab: page ? 'bag_search_pages_vocab' : 'bag_search_vocab',
    narrow: page ? 'bag_search_pages_rows' : SQLITE_ARTICLE_INDEX,
    triggers: page ? 'bag_search_pages_' : 'bag_search_',
    pgTable: page ? PG_PAGES_TABLE : PG_TABLE,
    pgKey: page ? 'page_id' : 'article_id',
    pgSync: page ? 'bag_search_pages_sync' : 'bag_search_sync',
  };
};
export type Source = ReturnType<typeof sourceOf>;

export const FTS_PAGES_EN = 'bag_search_pages_fts';
export const FTS_PAGES_PLAIN = 'bag_search_pages_fts_plain';
export const PG_PAGES_TABLE = 'bag_search_pages';
/** PostgreSQL: every indexed word, unstemmed (`simple` configuration), for typo candidates; it only grows. */
export const PG_WORDS = 'bag_search_words';

export const isEnglish = (column: string) => `(coalesce(${column}, '') = 'en' OR coalesce(${column}, '') LIKE 'en-%')`;

/** Which FTS5 table holds a locale's rows on SQLite. */
export const ftsTableOf = (locale: string, source?: Source) =>
  locale === 'en' || locale.startsWith('en-') ? (source?.ftsEn ?? FTS_EN) : (source?.ftsPlain ?? FTS_PLAIN);
