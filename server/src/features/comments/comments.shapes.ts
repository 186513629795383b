/** Shapes of the comment routes under `/api/bag`: submission, the approved tree, pages of it, replies and counts. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { ONCE, identifier, isIdentifier, localeQuery, once, optionalIdentifier, pagination, publicAuthor, queryInteger } from '../../platform/shapes/common';
import type { PluginConfig } from '../../platform/config/schema';
import { isRecord } from '../../platform/is-record';
import { parseShape } from '../../platform/shapes/parse';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { toIdentifier, type Identifier } from '../../platform/shapes/common';
import { NO_NUL, atMost, codePoints, noNul, required } from '../../platform/shapes/fields';

export const COMMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
const ONE_OF_STATUSES = `must be one of ${COMMENT_STATUSES.join(', ')}`;
export const commentStatus = lazyShape(() => z.enum(COMMENT_STATUSES, { error: ONE_OF_STATUSES }));
export type CommentStatus = z.infer<typeof commentStatus>;
export const THREAD_SORTS = ['createdAt:desc', 'createdAt:asc', 'top'] as const;
export type ThreadSort = (typeof THREAD_SORTS)[number];
export const threadSort = lazyShape(() => z.enum(THREAD_SORTS));

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

/**
 * A comment's author: a user (`id`, `documentId`, `username`), or a guest's name alone (`username`; a comment kept from
 * an import, docs/import.md).
 */
export const nodeAuthor = lazyShape(() =>
  publicAuthor
    .extend({
      id: z.number().int().optional().describe("The user's id; absent for a guest."),
      documentId: z.string().optional().describe("The user's documentId; absent for a guest."),
    })
    .describe("A comment's author: a user, or a guest's name alone (no id: a comment kept from an import).")
);

/** A node of the approved tree: never the IP, the User-Agent, an e-mail or the status. */
export const commentNode = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  createdAt: z.iso.datetime(),
  isAdmin: z.boolean(),
  author: nodeAuthor.nullable(),
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
  author: nodeAuthor.nullable(),
  editedAt: z.iso.datetime().nullable().describe('When the author last edited it; null if never.'),
  pinned: z.boolean().describe('Pinned by a moderator (roots only; pinned roots come first).'),
  deleted: z.boolean().describe('Taken back by its author and kept for its replies: content and contentHtml are empty, author is null.'),
  contentHtml: z.string().optional().describe('The content rendered from Markdown (with comments.markdown).'),
  replyCount: z.number().int().describe('Approved direct replies.'),
  liked: z.boolean().optional().describe('Only for a signed-in reader (Bearer): whether this reader likes it.'),
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
  editWindow: z.number().int().optional().describe('Only for a signed-in reader (Bearer): seconds after createdAt an author may edit a comment (comments.editWindow; 0: never).'),
}));

export const rootsPageResponse = lazyShape(() => z.object({ data: z.array(threadRoot), meta: threadMeta }));
export const repliesResponse = lazyShape(() => z.object({ data: z.array(threadReply), meta: threadMeta }));

/** Without paging parameters the whole approved tree; with any of them a page of roots. */
export const threadResponse = lazyShape(() => z.union([treeResponse, rootsPageResponse]));

/** The page sizes of a thread: `comments.thread.pageSize` (the default) and `.maxPageSize`; unknown to the document. */
type ThreadLimits = { pageSize: number; maxPageSize: number };
const ONE_OF = (sorts: readonly string[]) => `must be one of ${sorts.join(', ')}`;
const absentIfEmpty = (value: unknown) => (once(value) === '' ? undefined : once(value));

/** `pagination[pageSize]` and `pagination[withCount]` of a page; no other paging parameter (a page goes by `after`). */
const pageSizeQuery = (limits?: ThreadLimits) => {
  const shape = z
    .object(
      {
        pageSize: z.preprocess(
          once,
          queryInteger({ max: limits?.maxPageSize, fallback: limits?.pageSize, message: `must be an integer from 1 to ${limits?.maxPageSize ?? 'comments.thread.maxPageSize'}` })
        ),
        withCount: z.preprocess(
          once,
          // Absent or empty: true. Optional to the document (it may be left out), its default shown there.
          z.codec(
            z.enum(['', 'true', 'false'], { error: (issue) => (typeof issue.input === 'string' ? 'must be true or false' : ONCE) }).optional(),
            z.boolean().optional().meta({ default: true }),
            { decode: (raw) => raw !== 'false', encode: (value) => (value === false ? 'false' : 'true') }
          )
        ),
      },
      { error: 'must be pagination[pageSize]=<n>' }
    )
    .loose()
    .superRefine((given, ctx) => {
      for (const key of Object.keys(given).filter((name) => name !== 'pageSize' && name !== 'withCount')) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'is not supported here: page with pagination[pageSize] and after', input: given });
      }
    });
  return limits ? shape.default({ pageSize: limits.pageSize, withCount: true }) : shape.optional();
};


/** `sort` (one of `sorts`, `defaultSort` when absent or empty), `pagination`, `after` (the cursor, decoded by features/comments/thread.ts). */
const pageQuery = (sorts: readonly [ThreadSort, ...ThreadSort[]], defaultSort: ThreadSort, limits?: ThreadLimits) => ({
  sort: z.preprocess(absentIfEmpty, z.enum(sorts, { error: (issue) => (typeof issue.input === 'string' ? ONE_OF(sorts) : ONCE) }).default(defaultSort)),
  pagination: pageSizeQuery(limits),
  after: z.preprocess(absentIfEmpty, z.string({ error: ONCE }).optional()),
  ...localeQuery,
});

/**
 * Comment routes accept `locale` (an unknown code is a 400) and ignore it: a thread is per article document, the
 * same in every locale.
 */
export const commentLocaleQuery = localeQuery;
export const threadQueryFor = (limits?: ThreadLimits) => pageQuery(THREAD_SORTS, 'createdAt:desc', limits);
export const repliesQueryFor = (limits?: ThreadLimits) => pageQuery(['createdAt:asc'], 'createdAt:asc', limits);
export const threadQuery = lazyShape(() => threadQueryFor());
export const repliesQuery = lazyShape(() => repliesQueryFor());

/** Articles one counts request may name (after removing duplicates). */
export const MAX_COUNT_ARTICLES = 100;
const NOT_A_LIST = 'must be a comma-separated list of article ids';

/** `?articles=a,b,c` (or the parameter repeated): trimmed, empty parts and duplicates dropped. */
const articleKeys = (value: unknown, ctx: { addIssue: (issue: { code: 'custom'; message: string; input: unknown }) => void }) => {
  if (value === undefined) return [];
  const parts = Array.isArray(value) ? value : [value];
  if (!parts.every((part) => typeof part === 'string')) {
    ctx.addIssue({ code: 'custom', message: NOT_A_LIST, input: value });
    return [];
  }
  return [...new Set(parts.flatMap((part: string) => part.split(',')).map((part) => part.trim()).filter((part) => part !== ''))];
};

/** Approved, visible comments per article, keyed as the ids were given. */
export const countsQuery = lazyShape(() => ({
  articles: z
    .preprocess(
      articleKeys,
      z
        .array(z.string())
        .min(1, 'is required: ?articles=<documentId or id>,…')
        .max(MAX_COUNT_ARTICLES, `must name at most ${MAX_COUNT_ARTICLES} articles`)
        .superRefine((keys, ctx) => {
          const bad = keys.find((key) => !isIdentifier(key));
          if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `contains an invalid id: ${bad.slice(0, 64)}`, input: keys });
        })
    )
    .describe('comma-separated documentIds or numeric ids, at most 100'),
  ...localeQuery,
}));
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
export const MINE_PAGE_SIZE = { default: 25, max: 100 };
const MAX_PAGE = 1_000_000;
export const mineQuery = lazyShape(() => ({
  pagination: z
    .object(
      {
        page: queryInteger({ max: MAX_PAGE, fallback: 1, message: `must be an integer from 1 to ${MAX_PAGE}` }),
        pageSize: queryInteger({ max: MINE_PAGE_SIZE.max, fallback: MINE_PAGE_SIZE.default, message: `must be an integer from 1 to ${MINE_PAGE_SIZE.max}` }),
      },
      { error: 'must be an object' }
    )
    .default({ page: 1, pageSize: MINE_PAGE_SIZE.default }),
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

/** The article (`documentId`, numeric id accepted) or the comment a route is about. */
export const idParams = lazyShape(() => ({ id: z.string() }));

/**
 * The REST envelope `{ "data": { … } }` (what `@strapi/client` and `strapi-sdk-js` send on create) is unwrapped;
 * `data` next to other top-level fields is ambiguous and refused.
 */
const unwrapEnvelope = (body: unknown, ctx: z.core.$RefinementCtx) => {
  const input = isRecord(body) ? body : {};
  if (!('data' in input)) return input;
  if (Object.keys(input).length > 1) {
    ctx.addIssue({ code: 'custom', path: ['data'], message: 'must be the only top-level field when the body is wrapped in { data }', input });
  } else if (!isRecord(input.data)) ctx.addIssue({ code: 'custom', path: ['data'], message: 'must be an object', input });
  return input.data;
};
const present = (value: string | number | null | undefined): Identifier | undefined =>
  value === undefined || value === null || value === '' ? undefined : toIdentifier(value);

/** POST /bag/comments as checked: `comments.maxLength`, the envelope unwrapped, ids as the services take them. */
export const commentBodyFor = (maxLength: number) =>
  z.preprocess(unwrapEnvelope, commentFields(maxLength)).transform((fields) => ({
    content: fields.content,
    article: toIdentifier(fields.article),
    parent: present(fields.parent),
    author: present(fields.author),
  }));
export const contentBodyFor = (maxLength?: number) => z.object({ content: commentText(maxLength) });

// The requests of the comment routes: one issue at a time, the first (platform/shapes/parse.ts).
const maxLengthOf = (config: PluginConfig) => config.comments.maxLength;
export const createRequest = declareRequest(
  { ...jsonBody(createBody), query: commentLocaleQuery },
  { first: true, current: (config) => ({ ...jsonBody(commentBodyFor(maxLengthOf(config))), query: commentLocaleQuery }) }
);
export const mineRequest = declareRequest({ query: mineQuery }, { first: true });
export const editRequest = declareRequest(
  { params: idParams, ...jsonBody(editBody), query: commentLocaleQuery },
  { first: true, current: (config) => ({ params: idParams, ...jsonBody(contentBodyFor(maxLengthOf(config))), query: commentLocaleQuery }) }
);
export const removeRequest = declareRequest({ params: idParams, query: commentLocaleQuery }, { first: true });
export const threadRequest = declareRequest(
  { params: idParams, query: threadQuery },
  { first: true, current: (config) => ({ params: idParams, query: threadQueryFor(config.comments.thread) }) }
);
export const repliesRequest = declareRequest(
  { params: idParams, query: repliesQuery },
  { first: true, current: (config) => ({ params: idParams, query: repliesQueryFor(config.comments.thread) }) }
);
export const countsRequest = declareRequest({ query: countsQuery }, { first: true });

/** POST /bag/comments's body checked as the route checks it (GraphQL's `createComment` input). */
export const validateCommentBody = (body: unknown, maxLength: number) => parseShape(commentBodyFor(maxLength), isRecord(body) ? body : {}, { first: true });
