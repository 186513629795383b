/** Shapes of the admin panel's comment routes (`/cms-plugin-bag/comments…`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { COMMENT_STATUSES, commentStatus, commentText, contentBodyFor } from './comments.shapes';
import { queryInteger } from '../../platform/shapes/common';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';

export const moderationReport = lazyShape(() => z.object({ reason: z.string(), details: z.string().nullable(), createdAt: z.string() }));

/** A comment as moderators see it; `author.email` only for an admin who may read users in the Content Manager. */
export const moderatedComment = lazyShape(() => z.object({
  id: z.number().int(),
  documentId: z.string(),
  content: z.string(),
  status: commentStatus,
  isAdmin: z.boolean(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  author: z.object({ id: z.number().int(), documentId: z.string(), username: z.string(), email: z.string().optional() }).nullable(),
  article: z.object({ documentId: z.string(), title: z.string(), slug: z.string(), closed: z.boolean() }).nullable(),
  parent: z.object({ documentId: z.string() }).nullable(),
  pinned: z.boolean(),
  likes: z.number().int(),
  reportCount: z.number().int(),
  /** Oldest first; reasons and details only, never who reported. */
  reports: z.array(moderationReport),
}));

/** A whole number from 1 to `max` in a query string; empty is absent. */
const pageNumber = (max: number, fallback: number) => queryInteger({ max, fallback, message: `must be an integer from 1 to ${max}` });

export const MODERATION_PAGE_SIZE = { default: 25, max: 100 };

/** Filters and page of the moderation list; an empty parameter is absent. */
export const moderationQuery = lazyShape(() => ({
  status: z.enum(['', ...COMMENT_STATUSES], { error: `must be one of ${COMMENT_STATUSES.join(', ')}` }).optional(),
  article: z.string({ error: 'must be an article documentId' }).optional(),
  reported: z.enum(['true', 'false', ''], { error: 'must be true or false' }).optional(),
  page: pageNumber(1_000_000, 1),
  pageSize: pageNumber(MODERATION_PAGE_SIZE.max, MODERATION_PAGE_SIZE.default),
}));
export const moderationQueryShape = lazyShape(() => z.object(moderationQuery));

export const moderationList = lazyShape(() => z.object({
  data: z.array(moderatedComment),
  meta: z.object({
    pagination: z.object({ page: z.number().int(), pageSize: z.number().int(), pageCount: z.number().int(), total: z.number().int() }),
  }),
}));

export const MAX_BULK = 1000;
const DOCUMENT_IDS = `must be a list of 1 to ${MAX_BULK} documentIds`;
const isDocumentId = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= 64;

/** Up to MAX_BULK documentIds (duplicates count once) and the status they all move to. */
export const statusBody = lazyShape(() => z.object({
  documentIds: z
    // Items are checked as a whole, after the length: one message names the list, not an item's index.
    .array(z.unknown(), { error: DOCUMENT_IDS })
    .min(1, DOCUMENT_IDS)
    .max(MAX_BULK, DOCUMENT_IDS)
    .refine((ids) => ids.every(isDocumentId), 'must contain documentId strings')
    .meta({ items: { type: 'string' } }),
  status: commentStatus,
}));
export const statusResponse = lazyShape(() => z.object({ data: z.object({ updated: z.number().int() }) }));

export const replyParams = lazyShape(() => ({ documentId: z.string() }));
export const replyBody = lazyShape(() => z.object({ content: commentText() }));
export const replyResponse = lazyShape(() => z.object({ data: moderatedComment }));

/** `PUT /cms-plugin-bag/comments/:documentId/pin`: pinned roots come first in trees and pages, most recently pinned first. */
export const pinBody = lazyShape(() => z.object({ pinned: z.boolean({ error: 'must be true or false' }) }));
export const pinResponse = lazyShape(() => z.object({ data: z.object({ documentId: z.string(), pinned: z.boolean() }) }));

/** `PUT /cms-plugin-bag/articles/:documentId/comments`: close or reopen an article's thread. */
export const closeParams = lazyShape(() => ({ documentId: z.string() }));
export const closeBody = lazyShape(() => z.object({ closed: z.boolean({ error: 'must be true or false' }) }));
export const closeResponse = lazyShape(() => z.object({ data: z.object({ documentId: z.string(), closed: z.boolean() }) }));

/** Duplicates count once. */
const statusBodyChecked = lazyShape(() => statusBody.transform(({ documentIds, status }) => ({ documentIds: [...new Set(documentIds as string[])], status })));

// The requests of the moderation routes: one issue at a time, the first (platform/shapes/parse.ts).
export const moderationRequest = declareRequest({ query: moderationQuery }, { first: true });
export const statusRequest = declareRequest(jsonBody(statusBody), { first: true, current: () => jsonBody(statusBodyChecked) });
export const replyRequest = declareRequest(
  { params: replyParams, ...jsonBody(replyBody) },
  { first: true, current: (config) => ({ params: replyParams, ...jsonBody(contentBodyFor(config.comments.maxLength)) }) }
);
export const pinRequest = declareRequest({ params: replyParams, ...jsonBody(pinBody) }, { first: true });
export const closeRequest = declareRequest({ params: closeParams, ...jsonBody(closeBody) }, { first: true });
