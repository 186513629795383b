/**
 * The `comment-followers` service: users follow an article's thread (GET/POST/DELETE
 * `/api/bag/articles/:id/subscription`) and get one mail per newly approved comment in it, never for their own.
 * Once per comment across instances: the instance whose conditional UPDATE of the comment's `followersNotifiedAt`
 * changes the row sends, as the reply mails do with `notifiedAt` (notifications/scheduling.ts). Mails carry the
 * signed unsubscribe link of kind `follow` and the RFC 8058 headers (unsubscribe.ts).
 */
import type { Core } from '@strapi/strapi';
import type { Identifier } from './comment-vocabulary';
import { findVisibleComment } from './tables.data';
import { describeMailFailure } from '../../platform/mail-failure';
import { getService } from '../../platform/get-service';
import { findPublishedArticle } from './articles';
import { followMail } from './notifications/templates';
import { unsubscribeLinks } from './comment-unsubscribe.service';
import {
  claimFollowerMails,
  follow,
  followedArticleIds,
  followedComment,
  followersOf,
  isFollowing as isFollowingRow,
  mailAddressesOf,
  publishedArticleTitles,
  unfollow,
  unfollowAll,
} from './followers.data';

const commentFollowers = ({ strapi }: { strapi: Core.Strapi }) => {
  const inFlight = new Set<Promise<void>>();
  const links = unsubscribeLinks(strapi);
  const settings = () => getService(strapi, 'settings').file().comments.notifications;
  const now = () => getService(strapi, 'clock').now();

  const background = (job: () => Promise<void>) => {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(job)
      .catch((error) => {
        strapi.log.warn(`cms-plugin-bag: follower notification failed (${describeMailFailure(error)})`);
      })
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  const isFollowing = (articleDocumentId: string, userId: number) => isFollowingRow(strapi, articleDocumentId, userId);

  /** Takes the comment's one round of follower mails; of two instances approving it at once, exactly one gets it. */
  const claim = (id: number): Promise<boolean> => claimFollowerMails(strapi, id, new Date(now()));

  const send = (mail: ReturnType<typeof followMail>) => strapi.plugin('email').service('email').send(mail) as Promise<unknown>;

  const notify = async (documentId: string) => {
    // Only a comment the public tree shows (approved, every ancestor approved, on a published article).
    const visible = await findVisibleComment(strapi, documentId);
    if (!visible) return;
    const row = await followedComment(strapi, visible.id);
    if (!row?.article) return;
    const followers = await followersOf(strapi, row.article.documentId, row.author ? row.author.id : undefined);
    if (followers.length === 0) return;
    if (!(await claim(row.id))) return;
    const users = await mailAddressesOf(strapi, followers);
    for (const user of users) {
      if (!user.email || user.blocked) continue;
      if (await links.isUnsubscribed('follow', user.email)) continue;
      try {
        await send(followMail(row, row.article.title, user.email, links.unsubscribeUrl('follow', user.email), settings().subject.follow));
      } catch (error) {
        // The other followers keep their mail; this one is not retried (the claim is the comment's, not per follower).
        strapi.log.warn(`cms-plugin-bag: follower notification not delivered (${describeMailFailure(error)})`);
      }
    }
  };

  return {
    /** Whether the user follows the published article's thread. */
    async subscription(article: Identifier | undefined, userId: number): Promise<{ subscribed: boolean }> {
      const { documentId } = await findPublishedArticle(strapi, article);
      return { subscribed: await isFollowing(documentId, userId) };
    },

    /** Follows the thread; following twice changes nothing. */
    async subscribe(article: Identifier | undefined, userId: number): Promise<{ subscribed: true }> {
      const { documentId } = await findPublishedArticle(strapi, article);
      if (!(await isFollowing(documentId, userId))) {
        try {
          await follow(strapi, documentId, userId);
        } catch (error) {
          // The unique (article, subscriber): the same user subscribing twice at once.
          if (!(await isFollowing(documentId, userId))) throw error;
        }
      }
      return { subscribed: true };
    },

    /** Leaves the thread; leaving one not followed changes nothing. */
    async unsubscribe(article: Identifier | undefined, userId: number): Promise<{ subscribed: false }> {
      const { documentId } = await findPublishedArticle(strapi, article);
      await unfollow(strapi, documentId, userId);
      return { subscribed: false };
    },

    /** The threads the user follows (for the account export), each with its article as the public sees it. */
    async followedBy(userId: number): Promise<{ article: { documentId: string; title: string } | null }[]> {
      const followed = await followedArticleIds(strapi, userId);
      if (followed.length === 0) return [];
      const articles = await publishedArticleTitles(strapi, followed);
      const byId = new Map(articles.map((article) => [article.documentId, article]));
      return followed.map((documentId) => {
        const article = byId.get(documentId);
        return { article: article ? { documentId: article.documentId, title: article.title } : null };
      });
    },

    /** Ends every subscription of the user (account deletion). */
    async forgetUser(userId: number): Promise<void> {
      await unfollowAll(strapi, userId);
    },

    /** After `documentIds` became approved: mails each one's followers, once per comment. */
    approved(documentIds: string[]): void {
      for (const documentId of documentIds) background(() => notify(documentId));
    },

    /** Resolves once every follower mail started so far has been sent or has failed. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
};

export type CommentFollowersService = ReturnType<typeof commentFollowers>;
export default commentFollowers;
