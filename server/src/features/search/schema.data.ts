/** The index's tables and triggers, created when missing, and its (re)building from the article and page tables. */
import type { Core } from '@strapi/strapi';
import { PG_CONFIGS, PG_WORDS, rowsOf, isPostgres, knex, isEnglish, sourceOf, type Source } from './common.data';

const SOURCES = ['article', 'page'] as const;
const each = async (strapi: Core.Strapi, run: (source: Source) => Promise<void>) => {
  for (const kind of SOURCES) await run(sourceOf(strapi, kind));
};
/** The unstemmed words of a row, for the typo vocabulary (PostgreSQL: `simple` lexemes of the three columns). */
const pgWords = (row: string, a: Source) =>
  `SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', coalesce(${row}${a.title}, '') || ' ' || ` +
  `coalesce(${row}${a.summary}, '') || ' ' || coalesce(${row}${a.content}, '')))) w ORDER BY w`;

/** Creates the index tables and triggers when missing (SQLite: Strapi's table rebuilds drop triggers). */
const ensureSqlite = async (strapi: Core.Strapi, a: Source) => {
  const db = knex(strapi);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${a.ftsEn} USING fts5(title, summary, content, tokenize = 'porter unicode61 remove_diacritics 2')`);
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${a.ftsPlain} USING fts5(title, summary, content, tokenize = 'unicode61 remove_diacritics 2')`);
  // The typo vocabulary: the rows' words unstemmed, as a contentless index (no copy of the text, rows deletable by
  // rowid) whose fts5vocab table lists each word with its number of rows, kept exact by the same triggers.
  await db.raw(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${a.words} USING fts5(text, content = '', contentless_delete = 1, detail = none, ` +
      `tokenize = 'unicode61 remove_diacritics 2')`,
  );
  await db.raw(`CREATE VIRTUAL TABLE IF NOT EXISTS ${a.vocab} USING fts5vocab(${a.words}, 'row')`);
  await db.raw(`CREATE INDEX IF NOT EXISTS ${a.narrow} ON ${a.table} (${a.id}, ${a.locale}, ${a.publishedAt})`);
  const columns = (row: string) => [a.title, a.summary, a.content].map((column) => `coalesce(${row}.${column}, '')`);
  const text = (row: string) => columns(row).join(', ');
  const insert = (row: string) =>
    [a.ftsEn, a.ftsPlain]
      .map(
        (fts) =>
          `INSERT INTO ${fts}(rowid, title, summary, content) SELECT ${row}.${a.id}, ${text(row)} WHERE ${row}.${a.publishedAt} IS NOT NULL ` +
          `AND ${fts === a.ftsEn ? '' : 'NOT '}${isEnglish(`${row}.${a.locale}`)};`,
      )
      .join(' ') +
    ` INSERT INTO ${a.words}(rowid, text) SELECT ${row}.${a.id}, ${columns(row).join(` || ' ' || `)} WHERE ${row}.${a.publishedAt} IS NOT NULL;`;
  const remove = (row: string) => [a.ftsEn, a.ftsPlain, a.words].map((fts) => `DELETE FROM ${fts} WHERE rowid = ${row}.${a.id};`).join(' ');
  const t = a.triggers;
  await db.raw(`CREATE TRIGGER IF NOT EXISTS ${t}ai AFTER INSERT ON ${a.table} BEGIN ${insert('new')} END`);
  await db.raw(`CREATE TRIGGER IF NOT EXISTS ${t}ad AFTER DELETE ON ${a.table} BEGIN ${remove('old')} END`);
  await db.raw(
    `CREATE TRIGGER IF NOT EXISTS ${t}au AFTER UPDATE OF ${[a.id, a.title, a.summary, a.content, a.publishedAt, a.locale].join(', ')} ` +
      `ON ${a.table} BEGIN ${remove('old')} ${insert('new')} END`,
  );
};

const ensurePostgres = async (strapi: Core.Strapi) => {
  const available = new Set(rowsOf(await knex(strapi).raw('SELECT cfgname FROM pg_ts_config')).map((row) => String(row.cfgname)));
  const cases = Object.entries(PG_CONFIGS)
    .filter(([, config]) => available.has(config))
    .map(([code, config]) => `WHEN '${code}' THEN '${config}'`)
    .join(' ');
  await knex(strapi).transaction(async (trx) => {
    // One instance at a time: CREATE OR REPLACE / CREATE TRIGGER race otherwise.
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [0x6261_6773]);
    await trx.raw(
      `CREATE OR REPLACE FUNCTION bag_search_config(code text) RETURNS regconfig LANGUAGE sql IMMUTABLE AS $$ ` +
        `SELECT (CASE lower(split_part(coalesce(code, ''), '-', 1)) ${cases} ELSE 'simple' END)::regconfig $$`,
    );
    await trx.raw(
      `CREATE OR REPLACE FUNCTION bag_search_vector(cfg regconfig, title text, summary text, content text) RETURNS tsvector ` +
        `LANGUAGE sql IMMUTABLE AS $$ SELECT setweight(to_tsvector(cfg, coalesce(title, '')), 'A') || ` +
        `setweight(to_tsvector(cfg, coalesce(summary, '')), 'B') || setweight(to_tsvector(cfg, coalesce(content, '')), 'C') $$`,
    );
    // Typo candidates: words by first letter and length (docs/search.md#typos).
    await trx.raw(`CREATE TABLE IF NOT EXISTS ${PG_WORDS} (word text PRIMARY KEY)`);
    await trx.raw(`CREATE INDEX IF NOT EXISTS ${PG_WORDS}_first ON ${PG_WORDS} (left(word, 1), length(word))`);
    for (const kind of SOURCES) {
      const a = sourceOf(strapi, kind);
      await trx.raw(`CREATE TABLE IF NOT EXISTS ${a.pgTable} (${a.pgKey} integer PRIMARY KEY, config regconfig NOT NULL, document tsvector NOT NULL)`);
      await trx.raw(`CREATE INDEX IF NOT EXISTS ${a.pgTable}_document ON ${a.pgTable} USING GIN (document)`);
      await trx.raw(
        `CREATE OR REPLACE FUNCTION ${a.pgSync}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
          `IF TG_OP <> 'INSERT' THEN DELETE FROM ${a.pgTable} WHERE ${a.pgKey} = OLD.${a.id}; END IF; ` +
          `IF TG_OP <> 'DELETE' AND NEW.${a.publishedAt} IS NOT NULL THEN ` +
          `INSERT INTO ${a.pgTable} (${a.pgKey}, config, document) VALUES (NEW.${a.id}, bag_search_config(NEW.${a.locale}), ` +
          `bag_search_vector(bag_search_config(NEW.${a.locale}), NEW.${a.title}, NEW.${a.summary}, NEW.${a.content})) ` +
          `ON CONFLICT (${a.pgKey}) DO UPDATE SET config = EXCLUDED.config, document = EXCLUDED.document; ` +
          `INSERT INTO ${PG_WORDS} (word) ${pgWords('NEW.', a)} ON CONFLICT DO NOTHING; END IF; ` +
          `RETURN NULL; END $$`,
      );
      await trx.raw(`DROP TRIGGER IF EXISTS ${a.pgSync} ON ${a.table}`);
      await trx.raw(
        `CREATE TRIGGER ${a.pgSync} AFTER INSERT OR DELETE OR UPDATE OF ${[a.id, a.title, a.summary, a.content, a.publishedAt, a.locale].join(', ')} ` +
          `ON ${a.table} FOR EACH ROW EXECUTE FUNCTION ${a.pgSync}()`,
      );
    }
  });
};

/** Creates the index and its triggers when missing. */
export const ensureSearchSchema = async (strapi: Core.Strapi) => {
  if (isPostgres(strapi)) await ensurePostgres(strapi);
  else await each(strapi, (source) => ensureSqlite(strapi, source));
};

/**
 * Published rows of a type the index lacks, and the id range to walk. PostgreSQL: an empty word table (a database
 * indexed before typos existed) makes every published row missing, so that the build fills it.
 */
export const missingRows = async (strapi: Core.Strapi, kind: Source['kind'] = 'article') => {
  const a = sourceOf(strapi, kind);
  let lacking: string;
  if (isPostgres(strapi)) {
    const [words] = rowsOf(await knex(strapi).raw(`SELECT EXISTS (SELECT 1 FROM ${PG_WORDS}) AS filled`));
    lacking = words.filled ? `NOT EXISTS (SELECT 1 FROM ${a.pgTable} s WHERE s.${a.pgKey} = ${a.table}.${a.id})` : 'TRUE';
  } else {
    lacking =
      `(${a.id} NOT IN (SELECT rowid FROM ${a.ftsEn} UNION ALL SELECT rowid FROM ${a.ftsPlain}) ` +
      `OR ${a.id} NOT IN (SELECT rowid FROM ${a.words}))`;
  }
  const [row] = rowsOf(
    await knex(strapi).raw(
      `SELECT count(*) AS missing, min(${a.id}) AS low, max(${a.id}) AS high FROM ${a.table} WHERE ${a.publishedAt} IS NOT NULL AND ${lacking}`,
    ),
  );
  return { missing: Number(row.missing), low: Number(row.low ?? 0), high: Number(row.high ?? 0) };
};

/** Removes index rows whose article or page row is gone or no longer published. */
export const removeOrphans = async (strapi: Core.Strapi) =>
  each(strapi, async (a) => {
    const published = `SELECT ${a.id} FROM ${a.table} WHERE ${a.publishedAt} IS NOT NULL`;
    if (isPostgres(strapi)) {
      await knex(strapi).raw(
        `DELETE FROM ${a.pgTable} s WHERE NOT EXISTS (SELECT 1 FROM ${a.table} WHERE ${a.id} = s.${a.pgKey} AND ${a.publishedAt} IS NOT NULL)`,
      );
      return;
    }
    for (const fts of [a.ftsEn, a.ftsPlain, a.words]) await knex(strapi).raw(`DELETE FROM ${fts} WHERE rowid NOT IN (${published})`);
  });

/** Indexes the published rows with ids in (from, to] that the index lacks; one statement per table, so concurrent runs are harmless. */
export const indexRange = async (strapi: Core.Strapi, from: number, to: number, kind: Source['kind'] = 'article') => {
  const a = sourceOf(strapi, kind);
  const where = `${a.publishedAt} IS NOT NULL AND ${a.id} > ? AND ${a.id} <= ?`;
  if (isPostgres(strapi)) {
    await knex(strapi).raw(
      `INSERT INTO ${a.pgTable} (${a.pgKey}, config, document) SELECT ${a.id}, bag_search_config(${a.locale}), ` +
        `bag_search_vector(bag_search_config(${a.locale}), ${a.title}, ${a.summary}, ${a.content}) FROM ${a.table} ` +
        `WHERE ${where} ON CONFLICT (${a.pgKey}) DO NOTHING`,
      [from, to],
    );
    await knex(strapi).raw(
      `INSERT INTO ${PG_WORDS} (word) SELECT DISTINCT w FROM ${a.table}, unnest(tsvector_to_array(to_tsvector('simple', ` +
        `coalesce(${a.title}, '') || ' ' || coalesce(${a.summary}, '') || ' ' || coalesce(${a.content}, '')))) w ` +
        `WHERE ${where} ORDER BY w ON CONFLICT DO NOTHING`,
      [from, to],
    );
    return;
  }
  const texts = [a.title, a.summary, a.content].map((column) => `coalesce(${column}, '')`);
  for (const fts of [a.ftsEn, a.ftsPlain, a.words]) {
    const columns = fts === a.words ? 'text' : 'title, summary, content';
    const values = texts.join(fts === a.words ? ` || ' ' || ` : ', ');
    const locale = fts === a.words ? '' : ` AND ${fts === a.ftsEn ? '' : 'NOT '}${isEnglish(a.locale)}`;
    await knex(strapi).raw(
      `INSERT INTO ${fts}(rowid, ${columns}) SELECT ${a.id}, ${values} FROM ${a.table} WHERE ${where}${locale} ` +
        // Only the range's own rowids (FTS5 reads a rowid range directly): the whole index here made each range
        // cost the index's size, and a build from empty quadratic.
        `AND ${a.id} NOT IN (SELECT rowid FROM ${fts} WHERE rowid > ? AND rowid <= ?)`,
      [from, to, from, to],
    );
  }
};

/** Refreshes the planner's statistics after a bulk build (PostgreSQL; SQLite needs nothing). */
export const analyzeIndex = async (strapi: Core.Strapi) => {
  if (isPostgres(strapi)) for (const kind of SOURCES) await knex(strapi).raw(`ANALYZE ${sourceOf(strapi, kind).pgTable}`);
  if (isPostgres(strapi)) await knex(strapi).raw(`ANALYZE ${PG_WORDS}`);
};
