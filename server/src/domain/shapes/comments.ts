/** Shapes of the comment routes under `/api/bag`: submission, the approved tree, pages of it, replies and counts. */
import { z } from 'zod/v4';
import { identifier, optionalIdentifier, publicAuthor } from './common';
import { localeQuery } from './content';
import { NO_NUL, atMost, codePoints, noNul, required } from './fields';

export const COMMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
const ONE_OF_STATUSES = `must be one of ${COMMENT_STATUSES.join(', ')}`;
export const commentStatus = z.enum(COMMENT_STATUSES, { error: ONE_OF_STATUSES });
export type CommentStatus = z.infer<typeof commentStatus>;
export const threadSort = z.enum(['createdAt:desc', 'createdAt:asc', 'top']);

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
export const commentInput = commentFields();

/** The fields, or the Strapi REST envelope `{ data: { … } }` around them. */
export const createBody = z.union([commentInput, z.object({ data: commentInput })]);

/** The ids of a document a comment refers to. */
export const documentRef = z.object({ id: z.number().int(), documentId: z.string() });

export const createdComment = z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  status: commentStatus.describe('`pending` until a moderator approves it, or `approved` with comments.autoApprove.'),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  parent: documentRef.nullable(),
  article: documentRef,
});
export const createResponse = z.object({ data: createdComment });

/** A node of the approved tree: never the IP, the User-Agent, an e-mail or the status. */
export const commentNode = z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  author: publicAuthor.nullable(),
  get children(): z.ZodArray<typeof commentNode> {
    return z.array(commentNode);
  },
});
export type CommentTreeNode = z.infer<typeof commentNode>;

/** `total` counts every node of the tree, roots and replies. */
export const treeResponse = z.object({ data: z.array(commentNode), meta: z.object({ total: z.number().int() }) });

/** A reply in a paged thread: `replyCount` approved direct replies. */
export const threadReply = z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  likes: z.number().int(),
  author: publicAuthor.nullable(),
  replyCount: z.number().int().describe('Approved direct replies.'),
});

/** A root in a page of a thread, with its first replies (oldest first). */
export const threadRoot = threadReply.extend({ replies: z.array(threadReply).describe('The first approved replies, oldest first.') });

/** `next` is the cursor of the following page (pass it as `after`), null on the last page. */
export const cursorPagination = z.object({
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  next: z.string().nullable().describe('The `after` of the next page; null on the last page.'),
});

/** `total` is left out with `pagination[withCount]=false`. */
export const threadMeta = z.object({
  pagination: cursorPagination,
  total: z.number().int().optional().describe("The article's approved roots (in a page of replies, the comment's approved direct replies)."),
});

export const rootsPageResponse = z.object({ data: z.array(threadRoot), meta: threadMeta });
export const repliesResponse = z.object({ data: z.array(threadReply), meta: threadMeta });

/** Without paging parameters the whole approved tree; with any of them a page of roots. */
export const threadResponse = z.union([treeResponse, rootsPageResponse]);

const pageSizeQuery = z.object({ pageSize: z.string().optional(), withCount: z.enum(['true', 'false']).optional() }).optional();

/**
 * Comment routes accept `locale` (an unknown code is a 400) and ignore it: a thread is per article document, the
 * same in every locale.
 */
export const commentLocaleQuery = localeQuery;
export const threadQuery = { sort: threadSort.optional(), pagination: pageSizeQuery, after: z.string().optional(), ...localeQuery };
export const repliesQuery = { pagination: pageSizeQuery, after: z.string().optional(), ...localeQuery };

/** Approved, visible comments per article, keyed as the ids were given. */
export const countsQuery = { articles: z.string().describe('comma-separated documentIds or numeric ids, at most 100'), ...localeQuery };
export const countsResponse = z.object({ data: z.record(z.string(), z.number().int()) });

/** The article (`documentId`, numeric id accepted) or the comment a route is about. */
export const idParams = { id: z.string() };
