/**
 * The account's own rows among the comments' (features/accounts/account-export.ts, account-deletion.ts): its
 * comments, and the likes and reports of its voter key.
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');
const REACTION = uid('comment-reaction');
const REPORT = uid('comment-report');

export interface ExportedCommentRow {
  id: number;
  documentId: string;
  content: string;
  status: string;
  createdAt: string | Date;
  ip: string | null;
  userAgent: string | null;
  article: { documentId: string; title: string } | null;
}

/** The account's comments with their article, newest first. */
export const commentsForExport = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(COMMENT).findMany({
    where: { author: { id: userId } },
    select: ['id', 'documentId', 'content', 'status', 'createdAt', 'ip', 'userAgent'],
    populate: { article: { select: ['documentId', 'title'] } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  }) as Promise<ExportedCommentRow[]>;

export const commentIdsOfAuthor = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(COMMENT).findMany({ where: { author: { id: userId } }, select: ['id', 'documentId'] }) as Promise<{ id: number; documentId: string }[]>;

/** The comments' documentIds, by row id. */
export const documentIdsOfComments = async (strapi: Core.Strapi, ids: number[]): Promise<Map<number, string>> =>
  new Map(
    ((await strapi.db.query(COMMENT).findMany({ where: { id: { $in: ids } }, select: ['id', 'documentId'] })) as { id: number; documentId: string }[]).map(
      (row) => [row.id, row.documentId],
    ),
  );

/** The comment kept without its author, IP and User-Agent. */
export const anonymizeComment = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(COMMENT).update({ where: { id }, data: { author: null, ip: null, userAgent: null } });

export const likesForExport = (strapi: Core.Strapi, voter: string) =>
  strapi.db.query(REACTION).findMany({ where: { voter }, select: ['comment', 'createdAt'] }) as Promise<{ comment: number; createdAt: string | Date | null }[]>;

export const likedCommentsOf = (strapi: Core.Strapi, voter: string) =>
  strapi.db.query(REACTION).findMany({ where: { voter }, select: ['comment'] }) as Promise<{ comment: number }[]>;

export const reportsForExport = (strapi: Core.Strapi, voter: string) =>
  strapi.db.query(REPORT).findMany({ where: { voter }, select: ['comment', 'reason', 'details', 'createdAt'] }) as Promise<
    { comment: number; reason: string; details: string | null; createdAt: string | Date | null }[]
  >;
