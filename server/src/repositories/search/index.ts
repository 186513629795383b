/**
 * The full-text index of published articles (CONTRACT §9 search), kept by database triggers on the article table so
 * every write is followed at once: the Document Service, the Content Manager, the Query Engine and raw SQL alike, on
 * any instance sharing the database.
 *
 * - SQLite: two FTS5 tables with their own copy of the text (rowid = the article row's id): `bag_search_fts`
 *   (tokenizer `porter unicode61 remove_diacritics 2`) for English locales (`en`, `en-*`), `bag_search_fts_plain`
 *   (`unicode61 remove_diacritics 2`) for the others. Triggers `bag_search_ai` / `_au` / `_ad`.
 * - PostgreSQL: table `bag_search_index (article_id, config, document tsvector)` with a GIN index; the text-search
 *   configuration comes from the row's locale (`bag_search_config(locale)`, generated from `pg_ts_config`); trigger
 *   `bag_search_sync` (function of the same name).
 *
 * Only rows with `published_at` set are indexed; the title is weighted above the summary, the summary above the
 * content. Every statement here is idempotent, so several instances may run them at once.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { uid } from '../../domain/plugin-id';
import { tableOf } from '../../utils/columns';

const ARTICLE = uid('article');
const CATEGORY = uid('category');
const TAG = uid('tag');

export const FTS_EN = 'bag_search_fts';
export const FTS_PLAIN = 'bag_search_fts_plain';
export const PG_TABLE = 'bag_search_index';
/** Markers around a match in highlights; the service turns them into `<mark>` after escaping the text. */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

/** Language codes → PostgreSQL text-search configurations (used when the database has that configuration). */
const PG_CONFIGS: Record<string, string> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english',
  fi: 'finnish', fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian',
  ga: 'irish', it: 'italian', lt: 'lithuanian', ne: 'nepali', nb: 'norwegian', nn: 'norwegian', no: 'norwegian',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil',
  tr: 'turkish', yi: 'yiddish',
};

type RawRow = Record<string, unknown>;
const rowsOf = (result: unknown): RawRow[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as RawRow[];

export const isPostgres = (strapi: Core.Strapi) => strapi.db.dialect.client === 'postgres';
const knex = (strapi: Core.Strapi): Knex => strapi.db.connection;
const q = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The article table and the columns the index reads. */
const articleSchema = (strapi: Core.Strapi) => {
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

const isEnglish = (column: string) => `(coalesce(${column}, '') = 'en' OR coalesce(${column}, '') LIKE 'en-%')`;

/** Which FTS5 table holds a locale's rows on SQLite. */
export const ftsTableOf = (locale: string) => (locale === 'en' || locale.startsWith('en-') ? FTS_EN : FTS_PLAIN);

/** Creates the index tables and triggers when missing (SQLite: Strapi's table rebuilds drop triggers). */
const ensureSqlite = async (strapi: Core.Strapi) => {
  const a = articleSchema(strapi);
  const db = knex(strapi);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_EN} USING fts5(title, summary, content, tokenize = 'porter unicode61 remove_diacritics 2')`);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_PLAIN} USING fts5(title, summary, content, tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = (row: string) =>
    [FTS_EN, FTS_PLAIN]
      .map(
        (fts) =>
          `INSERT INTO ${fts}(rowid, title, summary, content) SELECT ${row}.${a.id}, coalesce(${row}.${a.title}, ''), ` +
          `coalesce(${row}.${a.summary}, ''), coalesce(${row}.${a.content}, '') WHERE ${row}.${a.publishedAt} IS NOT NULL ` +
          `AND ${fts === FTS_EN ? '' : 'NOT '}${isEnglish(`${row}.${a.locale}`)};`,
      )
      .join(' ');
  const remove = (row: string) => [FTS_EN, FTS_PLAIN].map((fts) => `DELETE FROM ${fts} WHERE rowid = ${row}.${a.id};`).join(' ');
  await db.raw(`CREATE TRIGGER IF NOT EXISTS bag_search_ai AFTER INSERT ON ${a.table} BEGIN ${insert('new')} END`);
  await db.raw(`CREATE TRIGGER IF NOT EXISTS bag_search_ad AFTER DELETE ON ${a.table} BEGIN ${remove('old')} END`);
  await db.raw(
    `CREATE TRIGGER IF NOT EXISTS bag_search_au AFTER UPDATE OF ${[a.id, a.title, a.summary, a.content, a.publishedAt, a.locale].join(', ')} ` +
      `ON ${a.table} BEGIN ${remove('old')} ${insert('new')} END`,
  );
};

const ensurePostgres = async (strapi: Core.Strapi) => {
  const a = articleSchema(strapi);
  const available = new Set(rowsOf(await knex(strapi).raw('SELECT cfgname FROM pg_ts_config')).map((row) => String(row.cfgname)));
  const cases = Object.entries(PG_CONFIGS)
    .filter(([, config]) => available.has(config))
    .map(([code, config]) => `WHEN '${code}' THEN '${config}'`)
    .join(' ');
  await knex(strapi).transaction(async (trx) => {
    // One instance at a time: CREATE OR REPLACE / CREATE TRIGGER race otherwise.
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [0x6261_6773]);
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${PG_TABLE} (article_id integer PRIMARY KEY, config regconfig NOT NULL, document tsvector NOT NULL)`);
    await trx.raw(`CREATE INDEX IF NOT EXISTS ${PG_TABLE}_document ON ${PG_TABLE} USING GIN (document)`);
    await trx.raw(
      `CREATE OR REPLACE FUNCTION bag_search_config(code text) RETURNS regconfig LANGUAGE sql IMMUTABLE AS $$ ` +
        `SELECT (CASE lower(split_part(coalesce(code, ''), '-', 1)) ${cases} ELSE 'simple' END)::regconfig $$`,
    );
    await trx.raw(
      `CREATE OR REPLACE FUNCTION bag_search_vector(cfg regconfig, title text, summary text, content text) RETURNS tsvector ` +
        `LANGUAGE sql IMMUTABLE AS $$ SELECT setweight(to_tsvector(cfg, coalesce(title, '')), 'A') || ` +
        `setweight(to_tsvector(cfg, coalesce(summary, '')), 'B') || setweight(to_tsvector(cfg, coalesce(content, '')), 'C') $$`,
    );
    await trx.raw(
      `CREATE OR REPLACE FUNCTION bag_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP <> 'INSERT' THEN DELETE FROM ${PG_TABLE} WHERE article_id = OLD.${a.id}; END IF; ` +
        `IF TG_OP <> 'DELETE' AND NEW.${a.publishedAt} IS NOT NULL THEN ` +
        `INSERT INTO ${PG_TABLE} (article_id, config, document) VALUES (NEW.${a.id}, bag_search_config(NEW.${a.locale}), ` +
        `bag_search_vector(bag_search_config(NEW.${a.locale}), NEW.${a.title}, NEW.${a.summary}, NEW.${a.content})) ` +
        `ON CONFLICT (article_id) DO UPDATE SET config = EXCLUDED.config, document = EXCLUDED.document; END IF; ` +
        `RETURN NULL; END $$`,
    );
    await trx.raw(`DROP TRIGGER IF EXISTS bag_search_sync ON ${a.table}`);
    await trx.raw(
      `CREATE TRIGGER bag_search_sync AFTER INSERT OR DELETE OR UPDATE OF ${[a.id, a.title, a.summary, a.content, a.publishedAt, a.locale].join(', ')} ` +
        `ON ${a.table} FOR EACH ROW EXECUTE FUNCTION bag_search_sync()`,
    );
  });
};

/** Creates the index and its triggers when missing. */
export const ensureSearchSchema = (strapi: Core.Strapi) => (isPostgres(strapi) ? ensurePostgres(strapi) : ensureSqlite(strapi));

const indexedIds = (strapi: Core.Strapi) =>
  isPostgres(strapi) ? `SELECT article_id FROM ${PG_TABLE}` : `SELECT rowid FROM ${FTS_EN} UNION ALL SELECT rowid FROM ${FTS_PLAIN}`;

/** Published article rows the index lacks, and the id range to walk. */
export const missingRows = async (strapi: Core.Strapi) => {
  const a = articleSchema(strapi);
  const [row] = rowsOf(
    await knex(strapi).raw(
      `SELECT count(*) AS missing, min(${a.id}) AS low, max(${a.id}) AS high FROM ${a.table} ` +
        `WHERE ${a.publishedAt} IS NOT NULL AND ${isPostgres(strapi) ? `NOT EXISTS (SELECT 1 FROM ${PG_TABLE} s WHERE s.article_id = ${a.table}.${a.id})` : `${a.id} NOT IN (${indexedIds(strapi)})`}`,
    ),
  );
  return { missing: Number(row.missing), low: Number(row.low ?? 0), high: Number(row.high ?? 0) };
};

/** Removes index rows whose article row is gone or no longer published. */
export const removeOrphans = async (strapi: Core.Strapi) => {
  const a = articleSchema(strapi);
  const published = `SELECT ${a.id} FROM ${a.table} WHERE ${a.publishedAt} IS NOT NULL`;
  if (isPostgres(strapi)) {
    await knex(strapi).raw(
      `DELETE FROM ${PG_TABLE} s WHERE NOT EXISTS (SELECT 1 FROM ${a.table} WHERE ${a.id} = s.article_id AND ${a.publishedAt} IS NOT NULL)`,
    );
    return;
  }
  for (const fts of [FTS_EN, FTS_PLAIN]) await knex(strapi).raw(`DELETE FROM ${fts} WHERE rowid NOT IN (${published})`);
};

/** Indexes the published rows with ids in (from, to] that the index lacks; one statement per table, so concurrent runs are harmless. */
export const indexRange = async (strapi: Core.Strapi, from: number, to: number) => {
  const a = articleSchema(strapi);
  const where = `${a.publishedAt} IS NOT NULL AND ${a.id} > ? AND ${a.id} <= ?`;
  if (isPostgres(strapi)) {
    await knex(strapi).raw(
      `INSERT INTO ${PG_TABLE} (article_id, config, document) SELECT ${a.id}, bag_search_config(${a.locale}), ` +
        `bag_search_vector(bag_search_config(${a.locale}), ${a.title}, ${a.summary}, ${a.content}) FROM ${a.table} ` +
        `WHERE ${where} ON CONFLICT (article_id) DO NOTHING`,
      [from, to],
    );
    return;
  }
  for (const fts of [FTS_EN, FTS_PLAIN]) {
    await knex(strapi).raw(
      `INSERT INTO ${fts}(rowid, title, summary, content) SELECT ${a.id}, coalesce(${a.title}, ''), coalesce(${a.summary}, ''), ` +
        `coalesce(${a.content}, '') FROM ${a.table} WHERE ${where} AND ${fts === FTS_EN ? '' : 'NOT '}${isEnglish(a.locale)} ` +
        `AND ${a.id} NOT IN (SELECT rowid FROM ${fts})`,
      [from, to],
    );
  }
};

/** Refreshes the planner's statistics after a bulk build (PostgreSQL; SQLite needs nothing). */
export const analyzeIndex = async (strapi: Core.Strapi) => {
  if (isPostgres(strapi)) await knex(strapi).raw(`ANALYZE ${PG_TABLE}`);
};

/** Row ids of a localized category or tag by slug (every row of that locale; they are not draft-and-publish). */
export const taxonomyIds = async (strapi: Core.Strapi, kind: 'category' | 'tag', slug: string, locale: string): Promise<number[]> => {
  const rows = (await strapi.db.query(kind === 'category' ? CATEGORY : TAG).findMany({ where: { slug, locale }, select: ['id'] })) as { id: number }[];
  return rows.map((row) => row.id);
};

export interface SearchQuery {
  /** Tokens of the user's text: letters and digits only, each matched as a literal term. */
  tokens: string[];
  locale: string;
  categoryIds?: number[];
  tagIds?: number[];
  limit: number;
  offset: number;
}

export interface SearchRow {
  id: number;
  documentId: string;
  slug: string;
  title: string;
  summary: string | null;
  publishedAt: unknown;
  highlightTitle: string;
  highlightSummary: string;
  highlightContent: string;
}

/** WHERE conditions on the article row `a` shared by the page and the count. */
const filters = (strapi: Core.Strapi, query: SearchQuery) => {
  const a = articleSchema(strapi);
  const sql = [`a.${a.locale} = ?`, `a.${a.publishedAt} IS NOT NULL`];
  const bindings: unknown[] = [query.locale];
  const within = (link: { table: string; article: string; target: string }, ids: number[]) => {
    sql.push(`EXISTS (SELECT 1 FROM ${q(link.table)} l WHERE l.${q(link.article)} = a.${a.id} AND l.${q(link.target)} IN (${ids.map(() => '?').join(', ')}))`);
    bindings.push(...ids);
  };
  if (query.categoryIds) within(a.category, query.categoryIds);
  if (query.tagIds) within(a.tags, query.tagIds);
  return { a, sql: sql.join(' AND '), bindings };
};

const toRow = (row: RawRow, marks: RawRow | undefined): SearchRow => ({
  id: Number(row.id),
  documentId: String(row.document_id),
  slug: String(row.slug),
  title: String(row.title ?? ''),
  summary: (row.summary as string | null) ?? null,
  publishedAt: row.published_at,
  highlightTitle: String(marks?.h_title ?? row.title ?? ''),
  highlightSummary: String(marks?.h_summary ?? ''),
  highlightContent: String(marks?.h_content ?? ''),
});

/** The number of matches (on PostgreSQL only for a page past the last; a page's rows carry it as `count(*) OVER ()`). */
const countFor = (strapi: Core.Strapi) => async (sql: string, bindings: unknown[]) =>
  Number(rowsOf(await knex(strapi).raw(sql, bindings))[0].total);

const sqliteSearch = async (strapi: Core.Strapi, query: SearchQuery) => {
  const countOf = countFor(strapi);
  const fts = ftsTableOf(query.locale);
  const match = query.tokens.map((token) => `"${token}"`).join(' ');
  const { a, sql, bindings } = filters(strapi, query);
  // CROSS JOIN: the FTS table drives (SQLite would otherwise scan the articles and run MATCH per row).
  const from = `FROM ${fts} CROSS JOIN ${a.table} a ON a.${a.id} = ${fts}.rowid WHERE ${fts} MATCH ? AND ${sql}`;
  const page = rowsOf(
    await knex(strapi).raw(
      `SELECT a.${a.id} AS id, a.${a.documentId} AS document_id, a.${a.slug} AS slug, a.${a.title} AS title, ` +
        `a.${a.summary} AS summary, a.${a.publishedAt} AS published_at ${from} ` +
        `ORDER BY bm25(${fts}, 10.0, 4.0, 1.0), a.${a.publishedAt} DESC, a.${a.id} DESC LIMIT ? OFFSET ?`,
      [match, ...bindings, query.limit, query.offset],
    ),
  );
  const marks = new Map<number, RawRow>();
  if (page.length) {
    const ids = page.map((row) => Number(row.id));
    const snippet = (column: number) => `snippet(${fts}, ${column}, '${MARK_START}', '${MARK_END}', '…', 32)`;
    const rows = rowsOf(
      await knex(strapi).raw(
        `SELECT rowid AS id, highlight(${fts}, 0, '${MARK_START}', '${MARK_END}') AS h_title, ${snippet(1)} AS h_summary, ` +
          `${snippet(2)} AS h_content FROM ${fts} WHERE ${fts} MATCH ? AND rowid IN (${ids.map(() => '?').join(', ')})`,
        [match, ...ids],
      ),
    );
    for (const row of rows) marks.set(Number(row.id), row);
  }
  // A separate count: FTS5's bm25() cannot share a statement with a window function.
  const total = await countOf(`SELECT count(*) AS total ${from}`, [match, ...bindings]);
  return { total, rows: page.map((row) => toRow(row, marks.get(Number(row.id)))) };
};

const postgresSearch = async (strapi: Core.Strapi, query: SearchQuery) => {
  const countOf = countFor(strapi);
  const text = query.tokens.join(' ');
  const { a, sql, bindings } = filters(strapi, query);
  const from =
    `FROM ${PG_TABLE} s JOIN ${a.table} a ON a.${a.id} = s.article_id, plainto_tsquery(bag_search_config(?), ?) query ` +
    `WHERE s.document @@ query AND ${sql}`;
  const head = [query.locale, text];
  const page = rowsOf(
    await knex(strapi).raw(
      `SELECT a.${a.id} AS id, a.${a.documentId} AS document_id, a.${a.slug} AS slug, a.${a.title} AS title, ` +
        `a.${a.summary} AS summary, a.${a.publishedAt} AS published_at, count(*) OVER () AS total, ` +
        `ts_rank('{0.1, 0.2, 0.4, 1.0}', s.document, query) AS rank ${from} ` +
        `ORDER BY rank DESC, a.${a.publishedAt} DESC, a.${a.id} DESC LIMIT ? OFFSET ?`,
      [...head, ...bindings, query.limit, query.offset],
    ),
  );
  const marks = new Map<number, RawRow>();
  if (page.length) {
    const ids = page.map((row) => Number(row.id));
    const options = (extra: string) => `StartSel=${MARK_START}, StopSel=${MARK_END}, ${extra}`;
    const rows = rowsOf(
      await knex(strapi).raw(
        `SELECT a.${a.id} AS id, ts_headline(s.config, coalesce(a.${a.title}, ''), query, ?) AS h_title, ` +
          `ts_headline(s.config, coalesce(a.${a.summary}, ''), query, ?) AS h_summary, ` +
          `ts_headline(s.config, coalesce(a.${a.content}, ''), query, ?) AS h_content ` +
          `FROM ${PG_TABLE} s JOIN ${a.table} a ON a.${a.id} = s.article_id, plainto_tsquery(bag_search_config(?), ?) query ` +
          `WHERE a.${a.id} IN (${ids.map(() => '?').join(', ')})`,
        [
          options('HighlightAll=true'),
          options('MaxWords=35, MinWords=15, ShortWord=2'),
          options('MaxWords=35, MinWords=15, ShortWord=2'),
          ...head,
          ...ids,
        ],
      ),
    );
    for (const row of rows) marks.set(Number(row.id), row);
  }
  const total = page.length ? Number(page[0].total) : await countOf(`SELECT count(*) AS total ${from}`, [...head, ...bindings]);
  return { total, rows: page.map((row) => toRow(row, marks.get(Number(row.id)))) };
};

/** One page of matches, best first, and the number of matches. */
export const searchIndex = (strapi: Core.Strapi, query: SearchQuery): Promise<{ total: number; rows: SearchRow[] }> =>
  isPostgres(strapi) ? postgresSearch(strapi, query) : sqliteSearch(strapi, query);
