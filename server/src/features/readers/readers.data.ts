/**
 * The readers' SQL: popular articles from the daily counts, related articles by shared tags, category and words, the
 * daily counts of one document, and their retention (docs/readers.md). Each answer is ONE statement.
 */
import type { Core } from '@strapi/strapi';
import { tableOf } from '../../platform/columns';
import { uid } from '../../platform/plugin-id';

const DAYS = 'bag_view_days';
const ARTICLE = uid('article');

interface Link {
  table: string;
  owner: string;
  target: string;
}
const linkOf = (strapi: Core.Strapi, owner: string, attribute: string): Link => {
  const { joinTable } = strapi.db.metadata.get(owner).attributes[attribute] as unknown as {
    joinTable: { name: string; joinColumn: { name: string }; inverseJoinColumn: { name: string } };
  };
  return { table: joinTable.name, owner: joinTable.joinColumn.name, target: joinTable.inverseJoinColumn.name };
};

export interface RankedRow {
  documentId: string;
  score: number;
}

/**
 * The published articles of `locale` read most since `since` (a UTC day; null: the totals), most first, ties newer
 * first (then the higher id): the day rows summed per document in one grouped statement on the `(kind, day, document,
 * views)` index. `categoryId`: only the articles of that category row.
 */
export const popularRows = async (
  strapi: Core.Strapi,
  { since, locale, categoryId, limit }: { since: string | null; locale: string; categoryId?: number; limit: number },
): Promise<RankedRow[]> => {
  const knex = strapi.db.connection;
  const { table, column } = tableOf(strapi, ARTICLE);
  const category = linkOf(strapi, ARTICLE, 'category');
  const query = knex(`${table} as a`)
    .whereNotNull(`a.${column('publishedAt')}`)
    .where(`a.${column('locale')}`, locale)
    .select({ documentId: `a.${column('documentId')}` });
  if (since === null) query.select({ score: `a.${column('views')}` }).where(`a.${column('views')}`, '>', 0);
  else {
    const days = knex(DAYS)
      .select('document')
      .sum({ views: 'views' })
      .where({ kind: 'article', locale })
      .where('day', '>=', since)
      .groupBy('document')
      .as('d');
    query.join(days, 'd.document', `a.${column('documentId')}`).select({ score: 'd.views' });
  }
  if (categoryId !== undefined) {
    query.whereIn(`a.id`, knex(category.table).select(category.owner).where(category.target, categoryId));
  }
  const scoreColumn = since === null ? `a.${column('views')}` : 'd.views';
  const rows = (await query
    .orderBy([{ column: scoreColumn, order: 'desc' }, { column: `a.${column('publishedAt')}`, order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(limit)) as { documentId: string; score: number | string }[];
  return rows.map((row) => ({ documentId: row.documentId, score: Number(row.score) }));
};

/** The published category row with this slug in `locale`; undefined when there is none. */
export const categoryRowId = async (strapi: Core.Strapi, slug: string, locale: string): Promise<number | undefined> => {
  const { table, column } = tableOf(strapi, uid('category'));
  const row = (await strapi.db
    .connection(table)
    .select('id')
    .where(column('slug'), slug)
    .where(column('locale'), locale)
    .whereNotNull(column('publishedAt'))
    .first()) as { id: number } | undefined;
  return row?.id;
};

export interface RelatedRow {
  documentId: string;
  title: string;
  summary: string | null;
  tags: number;
  category: number;
}

/**
 * Candidates related to the published article row `id`: other published articles of `locale` sharing a tag or the
 * category, or with one of `words` in the title, each with its shared tags and whether the category is the same, in
 * ONE statement; at most `cap`, most shared tags first, then the same category, newer first.
 */
export const relatedRows = async (
  strapi: Core.Strapi,
  { id, documentId, locale, words, cap }: { id: number; documentId: string; locale: string; words: string[]; cap: number },
): Promise<RelatedRow[]> => {
  const knex = strapi.db.connection;
  const { table, column } = tableOf(strapi, ARTICLE);
  const tags = linkOf(strapi, ARTICLE, 'tags');
  const category = linkOf(strapi, ARTICLE, 'category');
  // The candidates, each once per reason: a row per tag it shares, one per shared category, one per title with a word.
  // Summed per article (GROUP BY) rather than counted per article by correlated subqueries over every row: the work
  // grows with the candidates, not with the candidates times their links (docs/readers.md#related).
  const byTag = knex(`${tags.table} as t3`)
    .select({ id: `t3.${tags.owner}` })
    .select(knex.raw('1 as tags'), knex.raw('0 as category'))
    .join(`${tags.table} as t2`, `t2.${tags.target}`, `t3.${tags.target}`)
    .where(`t2.${tags.owner}`, id);
  const byCategory = knex(`${category.table} as c3`)
    .select({ id: `c3.${category.owner}` })
    .select(knex.raw('0 as tags'), knex.raw('1 as category'))
    .join(`${category.table} as c2`, `c2.${category.target}`, `c3.${category.target}`)
    .where(`c2.${category.owner}`, id);
  const candidates = [byTag, byCategory];
  if (words.length > 0) {
    candidates.push(
      knex(`${table} as w`)
        .select({ id: 'w.id' })
        .select(knex.raw('0 as tags'), knex.raw('0 as category'))
        .whereNotNull(`w.${column('publishedAt')}`)
        .where(`w.${column('locale')}`, locale)
        .where((where) => {
          for (const word of words) where.orWhereRaw('lower(??) like ?', [`w.${column('title')}`, `%${word.replace(/[%_\\]/g, '')}%`]);
        }),
    );
  }
  const scores = knex
    .select('s.id')
    .sum({ tags: 's.tags' })
    .max({ category: 's.category' })
    .from(byTag.unionAll(candidates.slice(1)).as('s'))
    .groupBy('s.id')
    .as('r');
  const rows = (await knex(`${table} as a`)
    .select({
      documentId: `a.${column('documentId')}`,
      title: `a.${column('title')}`,
      summary: `a.${column('summary')}`,
      publishedAt: `a.${column('publishedAt')}`,
      id: 'a.id',
      tags: 'r.tags',
      category: 'r.category',
    })
    .join(scores, 'r.id', 'a.id')
    .whereNotNull(`a.${column('publishedAt')}`)
    .where(`a.${column('locale')}`, locale)
    .whereNot(`a.${column('documentId')}`, documentId)
    .orderBy([{ column: 'r.tags', order: 'desc' }, { column: 'r.category', order: 'desc' }, { column: `a.${column('publishedAt')}`, order: 'desc' }, { column: 'a.id', order: 'desc' }])
    .limit(cap)) as { documentId: string; title: string; summary: string | null; tags: number | string; category: number | string }[];
  return rows.map((row) => ({ ...row, tags: Number(row.tags), category: Number(row.category) > 0 ? 1 : 0 }));
};

/** The published article row of `slug` in `locale`, with its title and summary; undefined when there is none. */
export const publishedArticleRow = async (strapi: Core.Strapi, slug: string, locale: string) => {
  const { table, column } = tableOf(strapi, ARTICLE);
  return (await strapi.db
    .connection(table)
    .select({ id: 'id', documentId: column('documentId'), title: column('title'), summary: column('summary') })
    .where(column('slug'), slug)
    .where(column('locale'), locale)
    .whereNotNull(column('publishedAt'))
    .first()) as { id: number; documentId: string; title: string; summary: string | null } | undefined;
};

/** Whether a published document of `uid` has `slug` in `locale`; its documentId. */
export const publishedDocumentOf = async (strapi: Core.Strapi, model: string, slug: string, locale: string) => {
  const { table, column } = tableOf(strapi, model);
  const row = (await strapi.db
    .connection(table)
    .select({ documentId: column('documentId') })
    .where(column('slug'), slug)
    .where(column('locale'), locale)
    .whereNotNull(column('publishedAt'))
    .first()) as { documentId: string } | undefined;
  return row?.documentId;
};

/** The daily counts of a document since `since` (all its locales summed per day), oldest first. */
export const dailyViews = async (strapi: Core.Strapi, kind: string, documentId: string, since: string) =>
  ((await strapi.db
    .connection(DAYS)
    .select('day')
    .sum({ views: 'views' })
    .where({ kind, document: documentId })
    .where('day', '>=', since)
    .groupBy('day')
    .orderBy('day')) as { day: string; views: number | string }[]).map((row) => ({ day: row.day, views: Number(row.views) }));

/** Removes the daily counts of days before `before`; the number removed. */
export const pruneDays = async (strapi: Core.Strapi, before: string): Promise<number> =>
  Number(await strapi.db.connection(DAYS).where('day', '<', before).delete());
