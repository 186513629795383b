/** The stored `contentHtml` of comments written before the column existed: which lack it, and filling it in. */
import type { Core } from '@strapi/strapi';
import { commentSchema, type RawRow } from './tables.data';

/** Up to `limit` comments (id, content) with text and no `contentHtml`, by id after `afterId`. */
export const commentsWithoutHtml = async (strapi: Core.Strapi, afterId: number, limit: number): Promise<RawRow[]> => {
  const s = commentSchema(strapi);
  return strapi.db
    .connection(s.comments)
    .select({ id: 'id', content: s.commentColumn('content') })
    .whereNull(s.commentColumn('contentHtml'))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit);
};

/** Stores each comment's rendered HTML, in one transaction; a row that got its HTML meanwhile keeps it. */
export const storeHtml = async (strapi: Core.Strapi, rows: { id: number; html: string }[]): Promise<void> => {
  const s = commentSchema(strapi);
  await strapi.db.connection.transaction(async (trx) => {
    for (const row of rows) {
      await trx(s.comments).where('id', row.id).whereNull(s.commentColumn('contentHtml')).update({ [s.commentColumn('contentHtml')]: row.html });
    }
  });
};
