/** What authors read and write of their own comments (features/comments/authors.ts). */
import type { Core } from '@strapi/strapi';
import type { CommentStatus, Identifier } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');

export interface OwnedRow {
  id: number;
  documentId: string;
  status: CommentStatus;
  createdAt: Date | string;
  deleted: boolean | null;
  author?: { id: number } | null;
}

/** The comment of that row id or documentId, with its author's id. */
export const ownedComment = (strapi: Core.Strapi, identifier: Identifier) =>
  strapi.db.query(COMMENT).findOne({
    select: ['id', 'documentId', 'status', 'createdAt', 'deleted'],
    where: typeof identifier === 'number' ? { id: identifier } : { documentId: identifier },
    populate: { author: { select: ['id'] } },
  }) as Promise<OwnedRow | null>;

export const countApprovedReplies = (strapi: Core.Strapi, id: number): Promise<number> =>
  strapi.db.query(COMMENT).count({ where: { parent: { id }, status: 'approved' } });

/** The comment kept in place as a tombstone: no text, no author, no client data, unpinned, `deleted`. */
export const writeTombstone = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(COMMENT).update({
    where: { id },
    data: { content: '', contentHtml: '', deleted: true, author: null, ip: null, userAgent: null, pinnedAt: null },
  });

/** One page of the account's comments (not tombstones), newest first, with their article, and how many there are. */
export const pageOfAuthor = (strapi: Core.Strapi, userId: number, page: number, pageSize: number) => {
  const where = { author: { id: userId }, deleted: { $ne: true } };
  return Promise.all([
    strapi.db.query(COMMENT).findMany({
      select: ['documentId', 'content', 'status', 'createdAt', 'editedAt'],
      where,
      populate: { article: { select: ['documentId', 'slug', 'title'] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      offset: (page - 1) * pageSize,
      limit: pageSize,
    }) as Promise<Record<string, any>[]>,
    strapi.db.query(COMMENT).count({ where }) as Promise<number>,
  ]);
};
