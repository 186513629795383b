/** A page of one comment's direct approved replies (part of the `comment-threads` service). */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import type { Identifier } from './comment-vocabulary';
import type { PageQuery } from './thread';
import { replyRows } from './threads.data';
import type { PageMeta, ThreadReply, threadPages } from './thread-pages';
import { closing } from './closing';
import { visibleCommentOr404 } from './visibility';

export const replies = (strapi: Core.Strapi, { toNodes, paginate }: ReturnType<typeof threadPages>) => ({
    /**
     * A page of one comment's direct approved replies, oldest first. The comment must be approved, have only
     * approved ancestors (what the tree shows), and belong to a published article; otherwise 404.
     */
    async replies(identifier: Identifier | undefined, query: PageQuery, config: PluginConfig): Promise<{ data: ThreadReply[]; meta: PageMeta }> {
      const parent = await visibleCommentOr404(strapi, identifier);
      const parentId = parent.id;
      const rows = await replyRows(strapi, { parentId, sort: query.sort, after: query.after, limit: query.pageSize + 1 });
      const closed = await closing(strapi).isClosed(parent.articleDocumentId, config, parent.closedByAdmin);
      return paginate(toNodes(rows, config.comments.markdown), query, parent.replyCount, closed);
    },

});
