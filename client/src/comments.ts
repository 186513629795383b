/** Comments under `/api/bag`: the approved tree, pages of it, replies, counts, and posting one. */
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/comments/comments.shapes';
import type * as followShapes from '../../server/src/features/comments/comment-follow.shapes';
import type * as feedbackShapes from '../../server/src/features/comments/comment-feedback.shapes';
import { localeQuery, type ReadOptions } from './locale';
import { withQuery } from './query';
import { json, type Session } from './session';

export type CommentNode = shapes.CommentTreeNode;
/** A reply in a paged thread: `replyCount` approved direct replies, fetched with `comments.replies`. */
export type ThreadReply = z.infer<typeof shapes.threadReply>;
/** A root in a page of a thread, with its first replies (oldest first). */
export type ThreadRoot = z.infer<typeof shapes.threadRoot>;
/** `next` is the cursor for the following page (pass it as `after`), null on the last page. */
export type ThreadMeta = z.infer<typeof shapes.threadMeta>;
export type ThreadSort = z.infer<typeof shapes.threadSort>;
export type CreatedComment = z.infer<typeof shapes.createdComment>;
/** What `comments.create` posts: the logged-in user (or a guest) is the author. */
export type CommentInput = Omit<z.input<typeof shapes.commentInput>, 'author'>;
/** The author's comment after an edit: back to `pending` unless it is approved at once. */
export type EditedComment = z.infer<typeof shapes.editedComment>;
/** One of the logged-in user's own comments, in any status, with its article. */
export type MyComment = z.infer<typeof shapes.myComment>;
/** Whether the logged-in user follows an article's thread. */
export type Subscription = z.infer<typeof followShapes.subscriptionResponse>;
/** A report's body: `reason` one of `comments.reports.reasons`, optional `details` (the route's request shape). */
export type ReportInput = z.input<typeof feedbackShapes.reportBody>;

/**
 * Comment reads take `locale` like every read (the client's default applies too); the server accepts a valid one and
 * ignores it, since a thread belongs to the article document whatever locale it is read in.
 */
export function commentCalls({ request, absoluteUrl, locale: fallback }: Session) {
  const withLocale = (options: ReadOptions) => localeQuery(fallback, options);
  const subscriptionPath = (article: string | number) => `/api/bag/articles/${encodeURIComponent(String(article))}/subscription`;
  return {
    /** The approved comment tree of an article (`documentId` or numeric id). */
    list: (article: string | number, options: ReadOptions = {}) =>
      request<z.infer<typeof shapes.treeResponse>>(
        withQuery(`/api/bag/articles/${encodeURIComponent(String(article))}/comments`, withLocale(options))
      ),
    /** A page of an article's approved roots, each with its first replies; pass `meta.pagination.next` as `after`. */
    page: (article: string | number, options: { sort?: ThreadSort; pageSize?: number; after?: string } & ReadOptions = {}) =>
      request<z.infer<typeof shapes.rootsPageResponse>>(
        withQuery(`/api/bag/articles/${encodeURIComponent(String(article))}/comments`, {
          sort: options.sort ?? 'createdAt:desc',
          ...(options.pageSize ? { pagination: { pageSize: options.pageSize } } : {}),
          ...(options.after ? { after: options.after } : {}),
          ...withLocale(options),
        })
      ),
    /** A page of a comment's approved direct replies, oldest first. */
    replies: (comment: string | number, options: { pageSize?: number; after?: string } & ReadOptions = {}) =>
      request<z.infer<typeof shapes.repliesResponse>>(
        withQuery(`/api/bag/comments/${encodeURIComponent(String(comment))}/replies`, {
          ...(options.pageSize ? { pagination: { pageSize: options.pageSize } } : {}),
          ...(options.after ? { after: options.after } : {}),
          ...withLocale(options),
        })
      ),
    /** Approved, visible comments per article (up to 100 ids), keyed as given. */
    counts: (articles: (string | number)[], options: ReadOptions = {}) =>
      request<z.infer<typeof shapes.countsResponse>>(
        withQuery('/api/bag/comments/counts', { articles: articles.map(String).join(','), ...withLocale(options) })
      ),
    /** Posts a comment as the logged-in user (or as a guest); it starts `pending` unless auto-approve is on. */
    create: (input: CommentInput) => request<z.infer<typeof shapes.createResponse>>('/api/bag/comments', json('POST', input)),
    /**
     * Edits one's own comment within `comments.editWindow` (needs a login). An approved comment goes back to
     * `pending` unless the server approves it at once.
     */
    update: (comment: string | number, content: string) =>
      request<z.infer<typeof shapes.editResponse>>(`/api/bag/comments/${encodeURIComponent(String(comment))}`, json('PUT', { content })),
    /** Takes back one's own comment (needs a login); one with visible replies stays in the tree as `deleted`. */
    remove: (comment: string | number) =>
      request<z.infer<typeof shapes.deleteResponse>>(`/api/bag/comments/${encodeURIComponent(String(comment))}`, { method: 'DELETE' }),
    /** The logged-in user's own comments in every status (pending ones included), newest first. */
    mine: (options: { page?: number; pageSize?: number } = {}) =>
      request<z.infer<typeof shapes.mineResponse>>(
        withQuery('/api/bag/comments/mine', {
          ...(options.page || options.pageSize ? { pagination: { page: options.page, pageSize: options.pageSize } } : {}),
        })
      ),
    /** Likes an approved comment (a user by token, else a guest); idempotent. Answers the new count. */
    like: (comment: string | number) =>
      request<z.infer<typeof feedbackShapes.likeResponse>>(`/api/bag/comments/${encodeURIComponent(String(comment))}/like`, { method: 'POST' }),
    /** Takes one's like back; idempotent. */
    unlike: (comment: string | number) =>
      request<z.infer<typeof feedbackShapes.likeResponse>>(`/api/bag/comments/${encodeURIComponent(String(comment))}/like`, { method: 'DELETE' }),
    /** Reports a comment: `reason` one of `comments.reports.reasons` (docs/comments.md#likes-and-reports). */
    report: (comment: string | number, input: ReportInput) =>
      request<z.infer<typeof feedbackShapes.reportResponse>>(`/api/bag/comments/${encodeURIComponent(String(comment))}/report`, json('POST', input)),
    /** Whether the logged-in user follows the article's thread (needs a login: 401 otherwise). */
    subscription: (article: string | number) => request<Subscription>(subscriptionPath(article)),
    /** Follows the article's thread: a mail for each newly approved comment in it (not one's own). */
    subscribe: (article: string | number) => request<Subscription>(subscriptionPath(article), { method: 'POST' }),
    /** Leaves the article's thread. */
    unsubscribe: (article: string | number) => request<Subscription>(subscriptionPath(article), { method: 'DELETE' }),
    /**
     * The absolute URL of the article's comment feed (RSS 2.0 of its 50 newest comments), for a
     * `<link rel="alternate">`. The server answers 503 until the plugin's `site.url` is set.
     */
    commentFeedUrl: (article: string | number, options: ReadOptions = {}) =>
      absoluteUrl(withQuery(`/api/bag/articles/${encodeURIComponent(String(article))}/comments.rss`, withLocale(options))),
  };
}
