/** The SQL of the moderation list (services/comments/moderation.ts): which comments, in which order, how many. */
import type { Core } from '@strapi/strapi';
import type { AdminListQuery } from '../../domain/comments';
import { commentIdsOfArticle, commentSchema, type RawRow } from './tables';

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
