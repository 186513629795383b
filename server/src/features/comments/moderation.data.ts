/** The SQL of the moderation list (features/comments/moderation.ts): which comments, in which order, how many. */
import type { Core } from '@strapi/strapi';
import type { AdminListQuery } from './comment-vocabulary';
import { commentIdsOfArticle, commentSchema, type RawRow } from './tables.data';

/**
 * The filtered comments' count and the ids of one page: pending first, then newest first; `reported`: reported
 * comments only, most reported first.
 */
export const adminListPage = async (strapi: Core.Strapi, query: AdminListQuery): Promise<{ total: number; ids: number[] }> => {
  const s = commentSchema(strapi);
  const base = strapi.db.connection(`${s.comments} as c`);
  if (query.status) base.where(`c.${s.commentColumn('status')}`, query.status);
  if (query.article) base.whereIn('c.id', commentIdsOfArticle(strapi, query.article));
  if (query.reported) base.where(`c.${s.commentColumn('reportCount')}`, '>', 0);

  const [{ count }] = await base.clone().count({ count: 'c.id' });
  const total = Number(count);
  const ids: number[] = (
    await base
      .clone()
      .select('c.id')
      .modify((builder) => {
        if (query.reported) builder.orderBy(`c.${s.commentColumn('reportCount')}`, 'desc');
      })
      .orderByRaw(`CASE WHEN c.?? = ? THEN 0 ELSE 1 END`, [s.commentColumn('status'), 'pending'])
      .orderBy(`c.${s.commentColumn('createdAt')}`, 'desc')
      .orderBy('c.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
  ).map((row: RawRow) => Number(row.id));
  return { total, ids };
};

export interface QueueRow {
  documentId: string;
  content: string;
  createdAt: string;
  article: { documentId: string; title: string } | null;
}

/**
 * The moderation queue of the homepage widget in one statement: the `limit` newest pending comments, each with its
 * article's documentId and title (the `locale` version first, as the moderation list names it), and the pending
 * count as a window over the whole filter (computed before the limit).
 */
export const pendingQueue = async (strapi: Core.Strapi, limit: number, locale: string): Promise<{ pending: number; newest: QueueRow[] }> => {
  const s = commentSchema(strapi);
  const knex = strapi.db.connection;
  const articleOf = (column: string, alias: string) =>
    knex(`${s.articleLink.table} as l`)
      .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
      .whereRaw('l.?? = c.id', [s.articleLink.comment])
      .select(`a.${s.articleColumn(column)}`)
      .orderByRaw('CASE WHEN a.?? = ? THEN 0 ELSE 1 END', [s.articleColumn('locale'), locale])
      .orderBy('a.id')
      .limit(1)
      .as(alias);
  const rows: RawRow[] = await knex(`${s.comments} as c`)
    .where(`c.${s.commentColumn('status')}`, 'pending')
    .select({
      documentId: `c.${s.commentColumn('documentId')}`,
      content: `c.${s.commentColumn('content')}`,
      createdAt: `c.${s.commentColumn('createdAt')}`,
    })
    .select(knex.raw('count(*) over () as ??', ['total']))
    .select(articleOf('documentId', 'articleDocumentId'), articleOf('title', 'articleTitle'))
    .orderBy(`c.${s.commentColumn('createdAt')}`, 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit);
  return {
    pending: rows.length === 0 ? 0 : Number(rows[0].total),
    newest: rows.map((row) => ({
      documentId: String(row.documentId),
      content: String(row.content ?? ''),
      createdAt: new Date(row.createdAt as string | number).toISOString(),
      article: row.articleDocumentId ? { documentId: String(row.articleDocumentId), title: String(row.articleTitle ?? '') } : null,
    })),
  };
};
