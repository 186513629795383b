/** Queries of the index: one page of matches with highlights and their number, and the taxonomy filters' row ids. */
import type { Core } from '@strapi/strapi';
import {
  CATEGORY,
  TAG,
  MARK_START,
  MARK_END,
  type RawRow,
  rowsOf,
  isPostgres,
  knex,
  q,
  articleSchema,
  ftsTableOf,
  sourceOf,
  type Source,
  type SourceKind,
} from './common.data';
import { exactOf, hasCandidates, postgresMatch, sqliteMatch, type Terms } from './match.data';
import { HEADLINE_END, HEADLINE_START, SHADOW_END, SHADOW_START, fromHeadline, fromMarkerPair, headlineInput, withoutControls } from './marks.data';

/** Row ids of a localized category or tag by slug (every row of that locale; they are not draft-and-publish). */
export const taxonomyIds = async (strapi: Core.Strapi, kind: 'category' | 'tag', slug: string, locale: string): Promise<number[]> => {
  const rows = (await strapi.db.query(kind === 'category' ? CATEGORY : TAG).findMany({ where: { slug, locale }, select: ['id'] })) as { id: number }[];
  return rows.map((row) => row.id);
};

export interface SearchQuery {
  /** What to match: words of the user's text (letters and digits only) with their typo candidates, phrases, exclusions. */
  terms: Terms;
  /** Hits also matching these are left out (the typo-only hits: `terms` without what the exact words match). */
  without?: Terms;
  kind: SourceKind;
  locale: string;
  categoryIds?: number[];
  tagIds?: number[];
  limit: number;
  offset: number;
}

/** A page's row; its highlights hold MARK_START / MARK_END around matches and nowhere else (see ./marks). */
export interface SearchRow {
  kind: SourceKind;
  id: number;
  documentId: string;
  slug: string;
  title: string;
  summary: string | null;
  publishedAt: unknown;
  highlightTitle: string;
  highlightSummary: string;
  highlightContent: string;
  /** For merging articles and pages: exact hits first, then the higher score (SQLite: -bm25; PostgreSQL: ts_rank). */
  exact: boolean;
  score: number;
}

/** WHERE conditions on the article or page row `a` shared by the page, the count and the facets. */
const filters = (strapi: Core.Strapi, query: SearchQuery) => {
  const a = sourceOf(strapi, query.kind);
  const links = articleSchema(strapi);
  const sql = [`a.${a.locale} = ?`, `a.${a.publishedAt} IS NOT NULL`];
  const bindings: unknown[] = [query.locale];
  const within = (link: { table: string; article: string; target: string }, ids: number[]) => {
    sql.push(`EXISTS (SELECT 1 FROM ${q(link.table)} l WHERE l.${q(link.article)} = a.${a.id} AND l.${q(link.target)} IN (${ids.map(() => '?').join(', ')}))`);
    bindings.push(...ids);
  };
  if (query.categoryIds) within(links.category, query.categoryIds);
  if (query.tagIds) within(links.tags, query.tagIds);
  return { a, sql: sql.join(' AND '), bindings };
};

type Highlights = Pick<SearchRow, 'highlightTitle' | 'highlightSummary' | 'highlightContent'>;

const toRow = (kind: SourceKind, row: RawRow, marks: Highlights | undefined): SearchRow => ({
  kind,
  id: Number(row.id),
  documentId: String(row.document_id),
  slug: String(row.slug),
  title: String(row.title ?? ''),
  summary: (row.summary as string | null) ?? null,
  publishedAt: row.published_at,
  highlightTitle: marks?.highlightTitle ?? withoutControls(String(row.title ?? '')),
  highlightSummary: marks?.highlightSummary ?? '',
  highlightContent: marks?.highlightContent ?? '',
  exact: row.exact === true || Number(row.exact) === 1,
  score: Number(row.rank ?? 0) * (typeof row.exact === 'boolean' ? 1 : -1),
});

/** The number of matches, only for a page past the last (a page's rows carry it as `count(*) OVER ()`). */
const countFor = (strapi: Core.Strapi) => async (sql: string, bindings: unknown[]) =>
  Number(rowsOf(await knex(strapi).raw(sql, bindings))[0].total);

/** SQLite: the matches' FROM … WHERE (the FTS table driving, the narrow index checking each) with its bindings. */
export const sqliteFrom = (strapi: Core.Strapi, query: SearchQuery) => {
  const fts = ftsTableOf(query.locale, sourceOf(strapi, query.kind));
  const match = query.without ? `(${sqliteMatch(query.terms)}) NOT (${sqliteMatch(query.without)})` : sqliteMatch(query.terms);
  const { a, sql, bindings } = filters(strapi, query);
  // CROSS JOIN: the FTS table drives (SQLite would otherwise scan the articles and run MATCH per row); every match's
  // locale, publication and tie-break come from the narrow index, not the article row.
  const from = `FROM ${fts} CROSS JOIN ${a.table} a INDEXED BY ${a.narrow} ON a.${a.id} = ${fts}.rowid WHERE ${fts} MATCH ? AND ${sql}`;
  return { a, fts, match, from, bindings: [match, ...bindings] };
};

const sqliteSearch = async (strapi: Core.Strapi, query: SearchQuery) => {
  const countOf = countFor(strapi);
  const { a, fts, match, from, bindings: fromBindings } = sqliteFrom(strapi, query);
  // Exact hits first: a row also matching the words as typed (no typo candidates) ranks above one that needed an edit.
  const exact = hasCandidates(query.terms) && !query.without ? sqliteMatch(exactOf(query.terms)) : null;
  const exactColumn = exact ? `(a.${a.id} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?))` : '1';
  // One statement: the page ranked among the matches and their number (FTS5's bm25() cannot share a SELECT with a
  // window function, so it is computed in a subquery and `count(*) OVER ()` counted around it), then that page's
  // rows and highlights, read through a second MATCH restricted to the page's row ids: each highlight twice, with
  // two pairs of markers (./marks).
  const pairs = [`'${MARK_START}', '${MARK_END}'`, `'${SHADOW_START}', '${SHADOW_END}'`];
  const marked = (name: string, column: number) =>
    pairs
      .map((markers, n) =>
        column === 0
          ? `highlight(${fts}, 0, ${markers}) AS ${name}_${n}`
          : `snippet(${fts}, ${column}, ${markers}, '…', 32) AS ${name}_${n}`,
      )
      .join(', ');
  const ranked =
    `SELECT id, exact, rank, published_at, total FROM (SELECT id, exact, rank, published_at, count(*) OVER () AS total FROM (` +
    `SELECT a.${a.id} AS id, ${exactColumn} AS exact, bm25(${fts}, 10.0, 4.0, 1.0) AS rank, a.${a.publishedAt} AS published_at ${from})) ` +
    `ORDER BY exact DESC, rank, published_at DESC, id DESC LIMIT ? OFFSET ?`;
  const found = rowsOf(
    await knex(strapi).raw(
      `WITH page AS MATERIALIZED (${ranked}) ` +
        `SELECT page.total AS total, page.exact AS exact, page.rank AS rank, a.${a.id} AS id, a.${a.documentId} AS document_id, a.${a.slug} AS slug, a.${a.title} AS title, ` +
        `a.${a.summary} AS summary, a.${a.publishedAt} AS published_at, ` +
        `${marked('h_title', 0)}, ${marked('h_summary', 1)}, ${marked('h_content', 2)} ` +
        `FROM page CROSS JOIN ${fts} CROSS JOIN ${a.table} a ON a.${a.id} = ${fts}.rowid ` +
        `WHERE ${fts} MATCH ? AND ${fts}.rowid = page.id ORDER BY page.exact DESC, page.rank, page.published_at DESC, page.id DESC`,
      [...(exact ? [exact] : []), ...fromBindings, query.limit, query.offset, match],
    ),
  );
  // A page past the last has no row to carry the count: then it is counted on its own.
  const total = found.length
    ? Number(found[0].total)
    : query.offset > 0
      ? await countOf(`SELECT count(*) AS total ${from}`, fromBindings)
      : 0;
  const decoded = (row: RawRow, name: string) => fromMarkerPair(String(row[`${name}_0`] ?? ''), String(row[`${name}_1`] ?? ''));
  return {
    total,
    rows: found.map((row) =>
      toRow(query.kind, row, {
        highlightTitle: decoded(row, 'h_title'),
        highlightSummary: decoded(row, 'h_summary'),
        highlightContent: decoded(row, 'h_content'),
      }),
    ),
  };
};

/** PostgreSQL: the matches' FROM … WHERE with its bindings; `tq.query` is the tsquery, `tq.exact` the one without typos. */
export const postgresFrom = (strapi: Core.Strapi, query: SearchQuery) => {
  const { a, sql, bindings } = filters(strapi, query);
  const all = postgresMatch(query.terms, query.locale);
  const left = query.without ? postgresMatch(query.without, query.locale) : null;
  const match = left ? { sql: `(${all.sql} && !! ${left.sql})`, bindings: [...all.bindings, ...left.bindings] } : all;
  const exact = hasCandidates(query.terms) && !query.without ? postgresMatch(exactOf(query.terms), query.locale) : null;
  const tq = `(SELECT ${match.sql} AS query${exact ? `, ${exact.sql} AS exact` : ''}) tq`;
  const from = `FROM ${tq} CROSS JOIN ${a.pgTable} s JOIN ${a.table} a ON a.${a.id} = s.${a.pgKey} WHERE s.document @@ tq.query AND ${sql}`;
  return { a, match, exact: Boolean(exact), from, bindings: [...match.bindings, ...(exact?.bindings ?? []), ...bindings] };
};

const postgresSearch = async (strapi: Core.Strapi, query: SearchQuery) => {
  const countOf = countFor(strapi);
  const { a, match, exact, from, bindings: fromBindings } = postgresFrom(strapi, query);
  // The text reaches ts_headline with `&` and `<` as entities, so that its parser drops nothing (./marks).
  const options = (extra: string) => `StartSel="${HEADLINE_START}", StopSel="${HEADLINE_END}", ${extra}`;
  const headline = (column: string) => `ts_headline(s.config, ${headlineInput(`a.${column}`)}, tq.query, ?)`;
  // One statement. The matches are ranked and counted as narrow rows (id, publication, rank): the rank is computed in
  // a subquery kept apart by `OFFSET 0`, since the planner would otherwise carry each match's tsvector (~3.4 KB) through
  // `count(*) OVER ()` and the sort to compute it late, and spill them to temporary files. Only the page's rows are
  // then joined back to the article and index rows, for their fields and highlights.
  const ranked =
    `SELECT id, published_at, exact, rank, count(*) OVER () AS total FROM (` +
    `SELECT a.${a.id} AS id, a.${a.publishedAt} AS published_at, ${exact ? 's.document @@ tq.exact' : 'true'} AS exact, ` +
    `ts_rank('{0.1, 0.2, 0.4, 1.0}', s.document, tq.query) AS rank ` +
    `${from} OFFSET 0) matches ORDER BY exact DESC, rank DESC, published_at DESC, id DESC LIMIT ? OFFSET ?`;
  const page = rowsOf(
    await knex(strapi).raw(
      `SELECT page.total AS total, a.${a.id} AS id, a.${a.documentId} AS document_id, a.${a.slug} AS slug, a.${a.title} AS title, ` +
        `a.${a.summary} AS summary, a.${a.publishedAt} AS published_at, ` +
        `${headline(a.title)} AS h_title, ${headline(a.summary)} AS h_summary, ${headline(a.content)} AS h_content ` +
        `FROM (${ranked}) page JOIN ${a.table} a ON a.${a.id} = page.id JOIN ${a.pgTable} s ON s.${a.pgKey} = page.id, ` +
        `(SELECT ${match.sql} AS query) tq ORDER BY page.exact DESC, page.rank DESC, page.published_at DESC, page.id DESC`,
      [
        options('HighlightAll=true'),
        options('MaxWords=35, MinWords=15, ShortWord=2'),
        options('MaxWords=35, MinWords=15, ShortWord=2'),
        ...fromBindings,
        query.limit,
        query.offset,
        ...match.bindings,
      ],
    ),
  );
  // A page past the last has no row to carry the count: then it is counted on its own.
  const total = page.length
    ? Number(page[0].total)
    : query.offset > 0
      ? await countOf(`SELECT count(*) AS total ${from}`, fromBindings)
      : 0;
  return {
    total,
    rows: page.map((row) =>
      toRow(query.kind, row, {
        highlightTitle: fromHeadline(String(row.h_title ?? '')),
        highlightSummary: fromHeadline(String(row.h_summary ?? '')),
        highlightContent: fromHeadline(String(row.h_content ?? '')),
      }),
    ),
  };
};

/** The number of matches. */
export const countIndex = async (strapi: Core.Strapi, query: SearchQuery): Promise<number> => {
  const { from, bindings } = isPostgres(strapi) ? postgresFrom(strapi, query) : sqliteFrom(strapi, query);
  return countFor(strapi)(`SELECT count(*) AS total ${from}`, bindings);
};

/** One page of matches, best first, and the number of matches. */
export const searchIndex = (strapi: Core.Strapi, query: SearchQuery): Promise<{ total: number; rows: SearchRow[] }> =>
  isPostgres(strapi) ? postgresSearch(strapi, query) : sqliteSearch(strapi, query);
