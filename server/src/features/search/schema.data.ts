/** The index's tables and triggers, created when missing, and its (re)building from the article table. */
import type { Core } from '@strapi/strapi';
import {
  FTS_EN,
  FTS_PLAIN,
  PG_TABLE,
  PG_CONFIGS,
  SQLITE_ARTICLE_INDEX,
  rowsOf,
  isPostgres,
  knex,
  articleSchema,
  isEnglish,
} from './common.data';

/** Creates the index tables and triggers when missing (SQLite: Strapi's table rebuilds drop triggers). */
const ensureSqlite = async (strapi: Core.Strapi) => {
  const a = articleSchema(strapi);
  const db = knex(strapi);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_EN} USING fts5(title, summary, content, tokenize = 'porter unicode61 remove_diacritics 2')`);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_PLAIN} USING fts5(title, summary, content, tokenize = 'unicode61 remove_diacritics 2')`);
  await db.raw(`CREATE INDEX IF NOT EXISTS ${SQLITE_ARTICLE_INDEX} ON ${a.table} (${a.id}, ${a.locale}, ${a.publishedAt})`);
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
        // Only the range's own rowids (FTS5 reads a rowid range directly): the whole index here made each range
        // cost the index's size, and a build from empty quadratic.
        `AND ${a.id} NOT IN (SELECT rowid FROM ${fts} WHERE rowid > ? AND rowid <= ?)`,
      [from, to, from, to],
    );
  }
};

/** Refreshes the planner's statistics after a bulk build (PostgreSQL; SQLite needs nothing). */
export const analyzeIndex = async (strapi: Core.Strapi) => {
  if (isPostgres(strapi)) await knex(strapi).raw(`ANALYZE ${PG_TABLE}`);
};
