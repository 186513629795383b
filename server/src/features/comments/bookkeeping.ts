/**
 * Bookkeeping the Document Service middlewares call around a delete (features/comments/comment-writes.document-middleware.ts (`commentDelete`),
 * article-delete.ts): replies move up, an article's comments go with it.
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { inChunks } from '../../platform/chunks';
import { articleCommentIds } from './tables.data';
import { deleteCommentRows, familyOf } from './bookkeeping.data';

const COMMENT = uid('comment');

export const bookkeeping = (strapi: Core.Strapi) => ({
    /** Before a comment is deleted: its replies move up to its parent (or become roots), so no one else's text is lost. */
    async reparentChildren(documentId: string) {
      const comment = await familyOf(strapi, documentId);
      if (!comment) return;
      const data: Record<string, unknown> = { parent: comment.parent?.documentId ?? null };
      for (const child of comment.children ?? []) {
        await strapi.documents(COMMENT).update({ documentId: child.documentId, data });
      }
    },

    /** Ids of every comment on the article document (all its rows). */
    async idsOfArticle(articleDocumentId: string): Promise<number[]> {
      return articleCommentIds(strapi, articleDocumentId);
    },

    /** Deletes comments by id, in chunks. */
    async deleteByIds(ids: number[]): Promise<number> {
      return inChunks(ids, (chunk) => deleteCommentRows(strapi, chunk));
    },
});
