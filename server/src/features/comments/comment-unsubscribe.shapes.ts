/** Shapes of `/api/bag/comments/unsubscribe?token=…`, the signed link in every notification e-mail. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { checkedElsewhere, declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';

export const notificationKind = lazyShape(() => z.enum(['reply', 'digest', 'follow']));

/** Read by features/comments/unsubscribe-token.middleware.ts, which takes it out of the URL before anything logs it. */
export const tokenQuery = lazyShape(() => ({ token: checkedElsewhere(z.string().describe('the signed token of the e-mail link')) }));

/** GET: a confirmation page (HTML) that changes nothing. */
export const confirmPage = lazyShape(() => z.string().describe('text/html: a confirmation page with a one-click form'));

/** RFC 8058 one-click form field; a POST needs nothing else but the token. */
export const unsubscribeBody = checkedElsewhere(lazyShape(() => z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() })));

/** JSON for programs, an HTML page for a person who pressed the button (`Accept: text/html`). */
export const unsubscribed = lazyShape(() => z.object({ data: z.object({ unsubscribed: z.literal(true), kind: notificationKind }) }));
export const unsubscribeResponse = lazyShape(() => z.union([unsubscribed, z.string().describe('text/html: the done page')]));

export const confirmRequest = declareRequest({ query: tokenQuery });
export const unsubscribeRequest = declareRequest({ query: tokenQuery, ...jsonBody(unsubscribeBody) });
