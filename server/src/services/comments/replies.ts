/** A page of one comment's direct approved replies (part of the `comment-threads` service). */
import type { Core } from '@strapi/strapi';
import type { Identifier } from '../../domain/comments';
import type { PageQuery } from '../../domain/thread';
import { commentSchema, replyCountColumn, type RawRow } from '../../repositories/comments/tables';
import type { PageMeta, ThreadReply, threadPages } from './thread-pages';
import { visibleCommentOr404 } from './visibility';

export const replies = (strapi: Core.Strapi, { knex, nodeQuery, toNodes, applySort, paginate }: ReturnType<typeof threadPages>) => ({
    /**
     * A page of one comment's direct approved replies, oldest first. The comment must be approved, have only
     * approved ancestors (what the tree shows), and belong to a published article; otherwise 404.
     */
    async replies(identifier: Identifier | undefined, query: PageQuery): Promise<{ data: ThreadReply[]; meta: PageMeta }> {
      const parent = await visibleCommentOr404(strapi, identifier);
      const parentId = parent.id;
      const s = commentSchema(strapi);
      const page = nodeQuery(s, { from: `${s.parentLink.table} as p`, commentId: `p.${s.parentLink.comment}` })
        .where(`p.${s.parentLink.target}`, parentId)
        .where(`c.${s.commentColumn('status')}`, 'approved')
        .select(replyCountColumn(knex(), s));
      applySort(page, s, query.sort, query.after);
      const rows: RawRow[] = await page.limit(query.pageSize + 1);
      return paginate(toNodes(rows), query, parent.replyCount);
    },

});
