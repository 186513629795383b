/** What the comment events read (features/comments/events.ts): selected columns only, never an IP, User-Agent or e-mail. */
import type { Core } from '@strapi/strapi';
import type { CommentStatus } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');

/** A comment as an event payload is built from. */
export interface EventRow {
  documentId: string;
  content: string;
  status: CommentStatus;
  createdAt: Date | string;
  author: { documentId: string; username: string } | null;
  parent: { documentId: string } | null;
  article: { documentId: string; slug: string; title: string } | null;
}

const ARTICLE_FIELDS = ['documentId', 'slug', 'title'];
const SELECT = ['documentId', 'content', 'status', 'createdAt'];
const POPULATE = {
  author: { select: ['documentId', 'username'] },
  parent: { select: ['documentId'] },
  // The article relation links every row of the document: the published one names it as the public sees it.
  article: { select: ARTICLE_FIELDS, where: { publishedAt: { $notNull: true } } },
};

/** The comments of these documentIds, oldest first, their article as its published row names it (null without one). */
export const eventRows = (strapi: Core.Strapi, documentIds: string[]) =>
  strapi.db.query(COMMENT).findMany({
    where: { documentId: { $in: documentIds } },
    select: SELECT,
    populate: POPULATE,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  }) as Promise<EventRow[]>;

/** The article of each of these comments as any of its rows names it (for articles without a published row). */
export const anyArticleOf = (strapi: Core.Strapi, documentIds: string[]) =>
  strapi.db.query(COMMENT).findMany({
    where: { documentId: { $in: documentIds } },
    select: ['documentId'],
    populate: { article: { select: ARTICLE_FIELDS } },
  }) as Promise<Pick<EventRow, 'documentId' | 'article'>[]>;

/** Of these documentIds, those whose comment is not in `status`. */
export const notInStatus = async (strapi: Core.Strapi, documentIds: string[], status: CommentStatus): Promise<string[]> =>
  (
    await strapi.db.query(COMMENT).findMany({
      select: ['documentId'],
      where: { documentId: { $in: documentIds }, status: { $ne: status } },
    })
  ).map((row: { documentId: string }) => row.documentId);
