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

/** The vocabulary's words of the kinds searched within `budget` of `word` (already in vocabulary form), best first. */
export const candidatesOf = async (strapi: Core.Strapi, kinds: SourceKind[], word: string, budget = budgetOf(word)) => {
  if (budget === 0 || !kinds.length) return [];
  const length = lengthOf(word);
  const first = [...word][0];
  // Words one edit at the first letter away (a word with two typos keeps its first letter).
  const variants = firstLetterVariants(word);
  let rows: { term: string; rows: number }[];
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
    // Two lookups per table (a range of terms, a list of terms): fts5vocab serves each without a scan, not their OR.
    const selects = kinds.flatMap((kind) => {
      const { vocab } = sourceOf(strapi, kind);
      const range = `SELECT term, doc FROM ${vocab} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?`;
      return variants.length ? [range, `SELECT term, doc FROM ${vocab} WHERE term IN (${variants.map(() => '?').join(', ')})`] : [range];
    });
    const bindings = kinds.flatMap(() => [first, after(first), length - budget, length + budget, ...variants]);
    const found = rowsOf(await knex(strapi).raw(`SELECT term, sum(doc) AS rows FROM (${selects.join(' UNION ALL ')}) GROUP BY term`, bindings));
    rows = found.map((row) => ({ term: String(row.term), rows: Number(row.rows) }));
  }
  return closest(word, budget, rows);
};

/** Whether the vocabulary of the kinds searched holds `word` (vocabulary form). */
export const inVocabulary = async (strapi: Core.Strapi, kinds: SourceKind[], word: string) => {
  if (isPostgres(strapi)) return rowsOf(await knex(strapi).raw(`SELECT 1 FROM ${PG_WORDS} WHERE word = ?`, [word])).length > 0;
  const selects = kinds.map((kind) => `SELECT 1 FROM ${sourceOf(strapi, kind).vocab} WHERE term = ?`);
  return rowsOf(await knex(strapi).raw(selects.join(' UNION ALL '), kinds.map(() => word))).length > 0;
};
