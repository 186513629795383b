/**
 * What authors do with their own comments: edit within `comments.editWindow`, delete (a comment with visible
 * replies stays as a tombstone so the replies keep their place), and list them in every status.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { CommentStatus, Identifier } from './comment-vocabulary';
import { forbidden } from '../../platform/errors';
import { uid } from '../../platform/plugin-id';
import { toIso } from '../../platform/time';
import { getService } from '../../platform/get-service';
import { admission } from './admission';
import type { z } from 'zod/v4';
import type { editedComment, myComment } from './comments.shapes';
import { countApprovedReplies, ownedComment, pageOfAuthor, writeTombstone, type OwnedRow } from './authors.data';

const COMMENT = uid('comment');

export type EditedComment = z.infer<typeof editedComment>;
export type MyComment = z.infer<typeof myComment>;

export const authors = (strapi: Core.Strapi) => {
  const find = async (identifier: Identifier | undefined): Promise<OwnedRow> => {
    const row = identifier === undefined ? null : await ownedComment(strapi, identifier);
    if (!row || row.deleted) throw new errors.NotFoundError('Comment not found');
    return row;
  };
  const ownedBy = (row: OwnedRow, userId: number) => row.author?.id === userId;

  return {
    /**
     * The author's new text. The rules apply to it; an approved comment goes back to `pending` unless `autoApprove`
     * or `trustApproved` approves it; a rejected one stays rejected (a moderator's decision).
     */
    async edit(identifier: Identifier | undefined, userId: number, content: string, config: PluginConfig): Promise<EditedComment> {
      const row = await find(identifier);
      if (!ownedBy(row, userId)) throw forbidden("Cannot edit another user's comment");
      const now = getService(strapi, 'clock').now();
      const window = config.comments.editWindow;
      if (!window || now - new Date(row.createdAt).getTime() > window * 1000) throw forbidden('Edit window has passed');
      const earned = await admission(strapi).statusFor(content, userId, config, row.id);
      const status: CommentStatus = row.status === 'rejected' || earned === 'rejected' ? 'rejected' : earned;
      const updated = await strapi.documents(COMMENT).update({
        documentId: row.documentId,
        data: { content, status, editedAt: new Date(now) } as never,
      });
      return {
        id: row.id,
        documentId: row.documentId,
        content,
        status,
        createdAt: toIso(row.createdAt),
        editedAt: toIso((updated as { editedAt?: Date | string } | null)?.editedAt ?? new Date(now)),
      };
    },

    /**
     * The author takes the comment back. With approved replies it becomes a tombstone (no text, no author, no client
     * data; `deleted`), so the thread below it stays; without, it is deleted (features/comments/comment-writes.document-middleware.ts (`commentDelete`)
     * moves any hidden replies up and drops its likes and reports).
     */
    async remove(identifier: Identifier | undefined, userId: number): Promise<void> {
      const row = await find(identifier);
      if (!ownedBy(row, userId)) throw forbidden("Cannot delete another user's comment");
      const replies = await countApprovedReplies(strapi, row.id);
      if (row.status === 'approved' && replies > 0) {
        // A tombstone is written in place, not through the Document Service's delete: its `bag-comment.deleted` is
        // emitted here (the payload read before the text goes), as features/comments/comment-writes.document-middleware.ts (`commentEvents`) does for a delete.
        const emitDeleted = await getService(strapi, 'comment-events').beforeDelete([row.documentId]);
        await writeTombstone(strapi, row.id);
        emitDeleted();
      } else {
        await strapi.documents(COMMENT).delete({ documentId: row.documentId });
      }
    },

    /** The account's comments in every status, newest first. */
    async mine(userId: number, page: number, pageSize: number) {
      const [rows, total] = await pageOfAuthor(strapi, userId, page, pageSize);
      const data: MyComment[] = rows.map((row) => ({
        documentId: row.documentId,
        content: row.content,
        status: row.status,
        createdAt: toIso(row.createdAt),
        editedAt: row.editedAt ? toIso(row.editedAt) : null,
        article: row.article ? { documentId: row.article.documentId, slug: row.article.slug, title: row.article.title } : null,
      }));
      return { data, meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } } };
    },
  };
};
