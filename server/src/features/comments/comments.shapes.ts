/** Shapes of the comment routes under `/api/bag`: submission, the approved tree, pages of it, replies and counts. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { identifier, localeQuery, optionalIdentifier, pagination, publicAuthor } from '../../platform/shapes/common';
import { NO_NUL, atMost, codePoints, noNul, required } from '../../platform/shapes/fields';

export const COMMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
const ONE_OF_STATUSES = `must be one of ${COMMENT_STATUSES.join(', ')}`;
export const commentStatus = lazyShape(() => z.enum(COMMENT_STATUSES, { error: ONE_OF_STATUSES }));
export type CommentStatus = z.infer<typeof commentStatus>;
export const threadSort = lazyShape(() => z.enum(['createdAt:desc', 'createdAt:asc', 'top']));

/** Trimmed text of 1..maxLength characters (code points, so an emoji counts once); `comments.maxLength` is the limit. */
export const commentText = (maxLength?: number) => {
  const text = z.string({ error: 'must be a string' }).trim().refine(required, 'must not be empty').refine(noNul, NO_NUL);
  return maxLength === undefined ? text : text.refine((value) => codePoints(value) <= maxLength, atMost(maxLength));
};

/**
 * `content`, `article` (documentId or numeric id of a published article), optional `parent` and `author`; anything
 * else in the body is ignored. `maxLength` is `comments.maxLength` when a body is checked.
 */
export const commentFields = (maxLength?: number) =>
  z.object({ content: commentText(maxLength), article: identifier, parent: optionalIdentifier, author: optionalIdentifier });
export const commentInput = lazyShape(() => commentFields());

/** The fields, or the Strapi REST envelope `{ data: { … } }` around them. */
export const createBody = lazyShape(() => z.union([commentInput, z.object({ data: commentInput })]));

/** The ids of a document a comment refers to. */
export const documentRef = lazyShape(() => z.object({ id: z.number().int(), documentId: z.string() }));

export const createdComment = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  status: commentStatus.describe('`pending` until a moderator approves it, or `approved` with comments.autoApprove.'),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  parent: documentRef.nullable(),
  article: documentRef,
}));
export const createResponse = lazyShape(() => z.object({ data: createdComment }));

/** A node of the approved tree: never the IP, the User-Agent, an e-mail or the status. */
export const commentNode = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  author: publicAuthor.nullable(),
  editedAt: z.iso.datetime().nullable().describe('When the author last edited it; null if never.'),
  pinned: z.boolean().describe('Pinned by a moderator (roots only; pinned roots come first).'),
  deleted: z.boolean().describe('Taken back by its author and kept for its replies: content and contentHtml are empty, author is null.'),
  contentHtml: z.string().optional().describe('The content rendered from Markdown (with comments.markdown).'),
  get children(): z.ZodArray<typeof commentNode> {
    return z.array(commentNode);
  },
}));
export type CommentTreeNode = z.infer<typeof commentNode>;

/** `total` counts every node of the tree, roots and replies. */
export const treeResponse = lazyShape(() => z.object({ data: z.array(commentNode), meta: z.object({ total: z.number().int() }) }));

/** A reply in a paged thread: `replyCount` approved direct replies. */
export const threadReply = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  likes: z.number().int(),
  author: publicAuthor.nullable(),
  editedAt: z.iso.datetime().nullable().describe('When the author last edited it; null if never.'),
  pinned: z.boolean().describe('Pinned by a moderator (roots only; pinned roots come first).'),
  deleted: z.boolean().describe('Taken back by its author and kept for its replies: content and contentHtml are empty, author is null.'),
  contentHtml: z.string().optional().describe('The content rendered from Markdown (with comments.markdown).'),
  replyCount: z.number().int().describe('Approved direct replies.'),
}));

/** A root in a page of a thread, with its first replies (oldest first). */
export const threadRoot = lazyShape(() => threadReply.extend({ replies: z.array(threadReply).describe('The first approved replies, oldest first.') }));

/** `next` is the cursor of the following page (pass it as `after`), null on the last page. */
export const cursorPagination = lazyShape(() => z.object({
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  next: z.string().nullable().describe('The `after` of the next page; null on the last page.'),
}));

/** `total` is left out with `pagination[withCount]=false`. */
export const threadMeta = lazyShape(() => z.object({
  pagination: cursorPagination,
  closed: z.boolean().optional().describe('Present and true when the thread takes no new comments.'),
  total: z.number().int().optional().describe("The article's approved roots (in a page of replies, the comment's approved direct replies)."),
}));

export const rootsPageResponse = lazyShape(() => z.object({ data: z.array(threadRoot), meta: threadMeta }));
export const repliesResponse = lazyShape(() => z.object({ data: z.array(threadReply), meta: threadMeta }));

/** Without paging parameters the whole approved tree; with any of them a page of roots. */
export const threadResponse = lazyShape(() => z.union([treeResponse, rootsPageResponse]));

const pageSizeQuery = lazyShape(() => z.object({ pageSize: z.string().optional(), withCount: z.enum(['true', 'false']).optional() }).optional());

/**
 * Comment routes accept `locale` (an unknown code is a 400) and ignore it: a thread is per article document, the
 * same in every locale.
 */
export const commentLocaleQuery = localeQuery;
export const threadQuery = lazyShape(() => ({ sort: threadSort.optional(), pagination: pageSizeQuery, after: z.string().optional(), ...localeQuery }));
export const repliesQuery = lazyShape(() => ({ pagination: pageSizeQuery, after: z.string().optional(), ...localeQuery }));

/** Approved, visible comments per article, keyed as the ids were given. */
export const countsQuery = lazyShape(() => ({ articles: z.string().describe('comma-separated documentIds or numeric ids, at most 100'), ...localeQuery }));
export const countsResponse = lazyShape(() => z.object({ data: z.record(z.string(), z.number().int()) }));

/** `PUT /bag/comments/:id`: the author's new text. */
export const editBody = lazyShape(() => z.object({ content: commentText() }));
export const editedComment = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  status: commentStatus,
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime(),
}));
export const editResponse = lazyShape(() => z.object({ data: editedComment }));
export const deleteResponse = lazyShape(() => z.object({ message: z.string() }));

/** `GET /bag/comments/mine`: the account's comments in every status, newest first. */
export const mineQuery = lazyShape(() => ({
  pagination: z.object({ page: z.string().optional(), pageSize: z.string().optional() }).optional(),
  ...localeQuery,
}));
export const myComment = lazyShape(() => z.object({
  documentId: z.string(),
  content: z.string(),
  status: commentStatus,
  createdAt: z.iso.datetime(),
  editedAt: z.iso.datetime().nullable(),
  article: z.object({ documentId: z.string(), slug: z.string(), title: z.string() }).nullable(),
}));
export const mineResponse = lazyShape(() => z.object({ data: z.array(myComment), meta: z.object({ pagination }) }));
export const MINE_PAGE_SIZE = { default: 25, max: 100 };

/** The article (`documentId`, numeric id accepted) or the comment a route is about. */
export const idParams = lazyShape(() => ({ id: z.string() }));
