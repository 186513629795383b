/** Shapes of the admin newsletter routes (`/cms-plugin-bag/newsletters…`, `/cms-plugin-bag/sends…`), docs/newsletters.md#admin. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { BODY_NOT_OBJECT, email, text } from '../../platform/shapes/fields';
import { localeParam } from '../../platform/shapes/common';

export const SEND_STATUSES = ['queued', 'sending', 'done', 'cancelled'] as const;

export const send = lazyShape(() => z.object({
  id: z.number().int(),
  newsletter: z.object({ documentId: z.string(), name: z.string().nullable() }),
  article: z.object({ documentId: z.string(), title: z.string().nullable() }),
  locale: z.string().nullable(),
  status: z.enum(SEND_STATUSES),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
}));

export const documentParams = lazyShape(() => ({ documentId: z.string().min(1).max(64) }));
export const sendParams = lazyShape(() => ({ id: z.string().regex(/^\d{1,12}$/, 'must be a send id') }));

export const startBody = lazyShape(() => z.object({ article: text().min(1, 'is a required field'), locale: localeParam, test: email().optional() }, { error: BODY_NOT_OBJECT }));
export const started = lazyShape(() => z.object({ data: z.object({ id: z.number().int().nullable(), status: z.string(), total: z.number().int() }) }));
export const sendResponse = lazyShape(() => z.object({ data: send }));
export const sendList = lazyShape(() => z.object({ data: z.array(send) }));
export const sendListQuery = lazyShape(() => ({
  newsletter: z.string().optional(),
  article: z.string().optional(),
}));
export const subscriberCounts = lazyShape(() => z.object({
  data: z.array(z.object({ locale: z.string(), state: z.enum(['pending', 'active', 'unsubscribed']), count: z.number().int() })),
}));

/** The admin page's list: every newsletter with its subscribers by locale and state. */
export const adminNewsletters = lazyShape(() => z.object({
  data: z.array(z.object({ documentId: z.string(), slug: z.string(), name: z.string(), subscribers: subscriberCounts.shape.data })),
}));

export const startRequest = declareRequest({ params: documentParams, ...jsonBody(startBody) }, { first: true });
export const sendListRequest = declareRequest({ query: sendListQuery }, { first: true });
export const sendRequest = declareRequest({ params: sendParams }, { first: true });
/** Cancel takes no fields: an empty JSON object. */
export const cancelRequest = declareRequest({ params: sendParams, ...jsonBody(lazyShape(() => z.object({}, { error: BODY_NOT_OBJECT }))) }, { first: true });
export const countsRequest = declareRequest({ params: documentParams }, { first: true });
