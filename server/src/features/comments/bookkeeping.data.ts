/** What the bookkeeping around a comment's delete reads and deletes (features/comments/bookkeeping.ts, comment-writes.document-middleware.ts (`commentDelete`)). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');

/** The comment's parent and children (their documentIds). */
export const familyOf = (strapi: Core.Strapi, documentId: string) =>
  strapi.db.query(COMMENT).findOne({
    select: ['id'],
    where: { documentId },
    populate: { parent: { select: ['documentId'] }, children: { select: ['documentId'] } },
  }) as Promise<{ id: number; parent?: { documentId: string } | null; children?: { documentId: string }[] | null } | null>;

/** The row ids of the comment document. */
export const rowIdsOf = async (strapi: Core.Strapi, documentId: string): Promise<number[]> =>
  ((await strapi.db.query(COMMENT).findMany({ select: ['id'], where: { documentId } })) as { id: number }[]).map((row) => row.id);

/** Deletes the comments of these ids (one statement); returns how many. */
export const deleteCommentRows = async (strapi: Core.Strapi, ids: number[]): Promise<number> =>
  Number((await strapi.db.query(COMMENT).deleteMany({ where: { id: { $in: ids } } })).count);
