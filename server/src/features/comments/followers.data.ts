/** The thread subscriptions and what a follower mail reads (features/comments/followers.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');
const SUBSCRIPTION = uid('comment-subscription');
const ARTICLE = uid('article');
const USER = 'plugin::users-permissions.user';

export interface FollowedComment {
  id: number;
  content: string;
  isAdmin: boolean | null;
  author: { id: number; username: string } | null;
  article: { documentId: string; title: string } | null;
}

export const isFollowing = async (strapi: Core.Strapi, articleDocumentId: string, userId: number) =>
  Boolean(await strapi.db.query(SUBSCRIPTION).findOne({ select: ['id'], where: { articleDocumentId, subscriberId: userId } }));

export const follow = (strapi: Core.Strapi, articleDocumentId: string, userId: number) =>
  strapi.db.query(SUBSCRIPTION).create({ data: { articleDocumentId, subscriberId: userId } });

export const unfollow = (strapi: Core.Strapi, articleDocumentId: string, userId: number) =>
  strapi.db.query(SUBSCRIPTION).deleteMany({ where: { articleDocumentId, subscriberId: userId } });

export const unfollowAll = (strapi: Core.Strapi, userId: number) => strapi.db.query(SUBSCRIPTION).deleteMany({ where: { subscriberId: userId } });

/** The ids of the thread's followers, `except` that user (the comment's author) when given. */
export const followersOf = async (strapi: Core.Strapi, articleDocumentId: string, except: number | undefined): Promise<number[]> =>
  (
    (await strapi.db.query(SUBSCRIPTION).findMany({
      select: ['subscriberId'],
      where: { articleDocumentId, ...(except !== undefined ? { subscriberId: { $ne: except } } : {}) },
    })) as { subscriberId: number }[]
  ).map((s) => s.subscriberId);

/** The threads the user follows (their articles' documentIds), oldest first. */
export const followedArticleIds = async (strapi: Core.Strapi, userId: number): Promise<string[]> =>
  (
    (await strapi.db.query(SUBSCRIPTION).findMany({
      select: ['articleDocumentId'],
      where: { subscriberId: userId },
      orderBy: { id: 'asc' },
    })) as { articleDocumentId: string }[]
  ).map((row) => row.articleDocumentId);

/** The published rows of those articles (documentId and title). */
export const publishedArticleTitles = (strapi: Core.Strapi, documentIds: string[]) =>
  strapi.db.query(ARTICLE).findMany({
    select: ['documentId', 'title'],
    where: { documentId: { $in: documentIds }, publishedAt: { $notNull: true } },
    orderBy: { id: 'asc' },
  }) as Promise<{ documentId: string; title: string }[]>;

/**
 * Takes the comment's one round of follower mails at `at`: true when this call did (a conditional UPDATE of
 * `followersNotifiedAt`, so of two instances approving it at once exactly one gets it).
 */
export const claimFollowerMails = async (strapi: Core.Strapi, id: number, at: Date): Promise<boolean> => {
  const { count } = await strapi.db.query(COMMENT).updateMany({
    where: { id, status: 'approved', followersNotifiedAt: { $null: true } },
    data: { followersNotifiedAt: at },
  });
  return Number(count) === 1;
};

/** What a follower mail shows of the comment: its content, author and the published article's title. */
export const followedComment = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(COMMENT).findOne({
    where: { id },
    select: ['id', 'content', 'isAdmin'],
    populate: {
      author: { select: ['id', 'username'] },
      // The published row's title: an editor's unpublished edit never leaves the site by mail.
      article: { select: ['documentId', 'title'], where: { publishedAt: { $notNull: true } } },
    },
  }) as Promise<FollowedComment | null>;

/** Where and whether to mail these users. */
export const mailAddressesOf = (strapi: Core.Strapi, ids: number[]) =>
  strapi.db.query(USER).findMany({
    select: ['id', 'email', 'blocked'],
    where: { id: { $in: ids } },
  }) as Promise<{ id: number; email: string | null; blocked: boolean | null }[]>;
