/**
 * Facets and the suggest route's titles (docs/search.md#facets, docs/search.md#suggest): counts of categories and tags
 * over every match (not just the page), and titles whose words start with the typed words.
 */
import type { Core } from '@strapi/strapi';
import { CATEGORY, TAG, articleSchema, ftsTableOf, isPostgres, knex, q, rowsOf, sourceOf, type SourceKind } from './common.data';
import { tableOf } from '../../platform/columns';
import { postgresFrom, sqliteFrom, type SearchQuery } from './query.data';

export interface FacetCount {
  slug: string;
  title: string;
  count: number;
}

/** The categories or tags of every matching article with their number of matches, most first (then by slug). */
export const facetCounts = async (strapi: Core.Strapi, query: SearchQuery, facet: 'category' | 'tag'): Promise<FacetCount[]> => {
  const link = articleSchema(strapi)[facet === 'category' ? 'category' : 'tags'];
  const target = tableOf(strapi, facet === 'category' ? CATEGORY : TAG);
  const { from, bindings } = isPostgres(strapi) ? postgresFrom(strapi, query) : sqliteFrom(strapi, query);
  const [fromClause, where] = from.split(/ WHERE (.*)/s);
  const rows = rowsOf(
    await knex(strapi).raw(
      `SELECT t.${q(target.column('slug'))} AS slug, t.${q(target.column('title'))} AS title, count(DISTINCT a.${q('id')}) AS count ` +
        `${fromClause} JOIN ${q(link.table)} l ON l.${q(link.article)} = a.${q('id')} JOIN ${q(target.table)} t ON t.${q('id')} = l.${q(link.target)} ` +
        `WHERE ${where} GROUP BY t.${q(target.column('slug'))}, t.${q(target.column('title'))} ORDER BY count DESC, slug`,
      bindings,
    ),
  );
  return rows.map((row) => ({ slug: String(row.slug), title: String(row.title ?? ''), count: Number(row.count) }));
};

export interface SuggestRow {
  kind: SourceKind;
  slug: string;
  title: string;
}

/**
 * Up to `limit` published titles of a kind whose words start with `words` (each a prefix of some title word), the
 * newest rows first: the index walks its matches from the highest id down and stops at `limit` (SQLite: through the
 * narrow index, reading only those rows' titles), where an order by title would read every match.
 */
export const suggestTitles = async (strapi: Core.Strapi, kind: SourceKind, words: string[], locale: string, limit: number): Promise<SuggestRow[]> => {
  const a = sourceOf(strapi, kind);
  let sql: string;
  let bindings: unknown[];
  if (isPostgres(strapi)) {
    const query = words.map(() => 'to_tsquery(bag_search_config(?), ?)').join(' && ');
    sql =
      `SELECT a.${a.slug} AS slug, a.${a.title} AS title FROM ${a.pgTable} s JOIN ${a.table} a ON a.${a.id} = s.${a.pgKey} ` +
      `WHERE s.document @@ (${query}) AND a.${a.locale} = ? AND a.${a.publishedAt} IS NOT NULL ORDER BY s.${a.pgKey} DESC LIMIT ?`;
    // `word:*A`: a prefix of a word weighted A, the title's.
    bindings = [...words.flatMap((word) => [locale, `${word}:*A`]), locale, limit];
  } else {
    const fts = ftsTableOf(locale, a);
    sql =
      `SELECT a.${a.slug} AS slug, a.${a.title} AS title FROM (SELECT ${fts}.rowid AS id FROM ${fts} CROSS JOIN ${a.table} a ` +
      `INDEXED BY ${a.narrow} ON a.${a.id} = ${fts}.rowid WHERE ${fts} MATCH ? AND a.${a.locale} = ? AND a.${a.publishedAt} IS NOT NULL ` +
      `ORDER BY ${fts}.rowid DESC LIMIT ?) m CROSS JOIN ${a.table} a ON a.${a.id} = m.id ORDER BY m.id DESC`;
    bindings = [`title : (${words.map((word) => `"${word}"*`).join(' AND ')})`, locale, limit];
  }
  return rowsOf(await knex(strapi).raw(sql, bindings)).map((row) => ({ kind, slug: String(row.slug), title: String(row.title ?? '') }));
};
