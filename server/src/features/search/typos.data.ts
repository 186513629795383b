/**
 * The typo vocabulary (docs/search.md#typos): the indexed words near a query word. SQLite: the `fts5vocab` tables of
 * the contentless word indexes (exact: a word leaves when its last row does); PostgreSQL: `bag_search_words` (every
 * word ever indexed, looked up by first letter and length). Both by first letter, plus the few words one edit at the
 * first letter away, looked up by value.
 */
import type { Core } from '@strapi/strapi';
import { PG_WORDS, isPostgres, knex, rowsOf, sourceOf, type SourceKind } from './common.data';
import { budgetOf, closest, firstLetterVariants, lengthOf } from './typos';

/** A word as the vocabulary spells it: lower case; on SQLite without diacritics (`remove_diacritics 2`). */
export const vocabularyForm = (strapi: Core.Strapi, word: string) => {
  const lower = word.toLowerCase();
  return isPostgres(strapi) ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
};

const after = (char: string) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 1);

export type VocabularyRows = { term: string; rows: number }[];

/**
 * SQLite: every word of the kinds' vocabularies starting with `first`, with its number of rows. fts5vocab counts a
 * word's rows by walking its row list, so a range costs the rows of all its words (75 ms for one letter at 100,000
 * articles, against 0.05 ms for one word by value): the service keeps ranges in memory until the content changes.
 */
export const vocabularyRange = async (strapi: Core.Strapi, kinds: SourceKind[], first: string): Promise<VocabularyRows> => {
  const selects = kinds.map((kind) => `SELECT term, doc FROM ${sourceOf(strapi, kind).vocab} WHERE term >= ? AND term < ?`);
  const found = rowsOf(
    await knex(strapi).raw(`SELECT term, sum(doc) AS rows FROM (${selects.join(' UNION ALL ')}) GROUP BY term`, kinds.flatMap(() => [first, after(first)])),
  );
  return found.map((row) => ({ term: String(row.term), rows: Number(row.rows) }));
};

/**
 * The vocabulary's words of the kinds searched within `budget` of `word` (already in vocabulary form), best first.
 * `range` gives the words with `word`'s first letter (SQLite: `vocabularyRange`, or the service's kept copy).
 */
export const candidatesOf = async (
  strapi: Core.Strapi,
  kinds: SourceKind[],
  word: string,
  budget = budgetOf(word),
  range: (first: string) => Promise<VocabularyRows> = (first) => vocabularyRange(strapi, kinds, first),
) => {
  if (budget === 0 || !kinds.length) return [];
  const length = lengthOf(word);
  const first = [...word][0];
  // Words one edit at the first letter away (a word with two typos keeps its first letter).
  const variants = firstLetterVariants(word);
  let rows: VocabularyRows;
  if (isPostgres(strapi)) {
    const found = rowsOf(
      await knex(strapi).raw(
        `SELECT word AS term FROM ${PG_WORDS} WHERE left(word, 1) = ? AND length(word) BETWEEN ? AND ? ` +
          `UNION SELECT word FROM ${PG_WORDS} WHERE word = ANY(?)`,
        [first, length - budget, length + budget, variants],
      ),
    );
    rows = found.map((row) => ({ term: String(row.term), rows: 1 }));
  } else {
    // The variants by value (fts5vocab serves each without a scan); the first letter's words from `range`.
    const selects = kinds.map((kind) => `SELECT term, doc FROM ${sourceOf(strapi, kind).vocab} WHERE term IN (${variants.map(() => '?').join(', ')})`);
    const found = variants.length
      ? rowsOf(await knex(strapi).raw(`SELECT term, sum(doc) AS rows FROM (${selects.join(' UNION ALL ')}) GROUP BY term`, kinds.flatMap(() => variants)))
      : [];
    const near = (await range(first)).filter(({ term }) => Math.abs(lengthOf(term) - length) <= budget);
    rows = [...found.map((row) => ({ term: String(row.term), rows: Number(row.rows) })), ...near];
  }
  return closest(word, budget, rows);
};

/** Whether the vocabulary of the kinds searched holds `word` (vocabulary form). */
export const inVocabulary = async (strapi: Core.Strapi, kinds: SourceKind[], word: string) => {
  if (isPostgres(strapi)) return rowsOf(await knex(strapi).raw(`SELECT 1 FROM ${PG_WORDS} WHERE word = ?`, [word])).length > 0;
  const selects = kinds.map((kind) => `SELECT 1 FROM ${sourceOf(strapi, kind).vocab} WHERE term = ?`);
  return rowsOf(await knex(strapi).raw(selects.join(' UNION ALL '), kinds.map(() => word))).length > 0;
};
