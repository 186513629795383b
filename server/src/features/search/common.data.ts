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

export const isEnglish = (column: string) => `(coalesce(${column}, '') = 'en' OR coalesce(${column}, '') LIKE 'en-%')`;

/** Which FTS5 table holds a locale's rows on SQLite. */
export const ftsTableOf = (locale: string) => (locale === 'en' || locale.startsWith('en-') ? FTS_EN : FTS_PLAIN);
