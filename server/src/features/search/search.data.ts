/**
 * The full-text index of published articles (docs/search.md#the-index-and-how-it-follows-writes), kept by database triggers on the article table so
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
export { FTS_EN, FTS_PLAIN, MARK_END, MARK_START, PG_TABLE, ftsTableOf, isPostgres } from './common.data';
export * from './schema.data';
export * from './query.data';
export * from './facets.data';
export * from './typos.data';
export * from './match.data';
