/** What the comment mails read and claim (features/comments/notifications/scheduling.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../../platform/plugin-id';
import type { ReplyRow } from './templates';

const COMMENT = uid('comment');

/**
 * The article's published row only: the article relation links every row of the document, and the first is the
 * draft, whose title may be an editor's unpublished edit that must not leave the site by mail.
 */
const PUBLISHED_TITLE = { select: ['title'], where: { publishedAt: { $notNull: true } } };

/**
 * Takes the reply's one notification at `at`: true when this call did (a conditional UPDATE of `notifiedAt`, so of
 * two instances approving it at once exactly one gets it).
 */
export const claimReplyMail = async (strapi: Core.Strapi, id: number, at: Date): Promise<boolean> => {
  const { count } = await strapi.db.query(COMMENT).updateMany({
    where: { id, status: 'approved', notifiedAt: { $null: true } },
    data: { notifiedAt: at },
  });
  return Number(count) === 1;
};

/** Gives a claim back (a failed delivery). */
export const releaseReplyMail = (strapi: Core.Strapi, id: number) => strapi.db.query(COMMENT).updateMany({ where: { id }, data: { notifiedAt: null } });

/** The approved comments of these documentIds with their author, parent (its status and author) and published title. */
export const approvedReplies = (strapi: Core.Strapi, documentIds: string[]) =>
  strapi.db.query(COMMENT).findMany({
    where: { documentId: { $in: documentIds }, status: 'approved' },
    select: ['id', 'content', 'isAdmin'],
    populate: {
      author: { select: ['id', 'username'] },
      parent: { select: ['status'], populate: { author: { select: ['id', 'email', 'blocked'] } } },
      article: PUBLISHED_TITLE,
    },
  }) as Promise<ReplyRow[]>;

export const countPending = (strapi: Core.Strapi): Promise<number> => strapi.db.query(COMMENT).count({ where: { status: 'pending' } });

/** The `limit` newest pending comments: their content and published article title. */
export const newestPending = (strapi: Core.Strapi, limit: number) =>
  strapi.db.query(COMMENT).findMany({
    where: { status: 'pending' },
    select: ['content'],
    populate: { article: PUBLISHED_TITLE },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    limit,
  });

/** Of these documentIds, those whose comment is not approved. */
export const notApproved = async (strapi: Core.Strapi, documentIds: string[]): Promise<string[]> =>
  (
    await strapi.db.query(COMMENT).findMany({
      select: ['documentId'],
      where: { documentId: { $in: documentIds }, status: { $ne: 'approved' } },
    })
  ).map((row: { documentId: string }) => row.documentId);
