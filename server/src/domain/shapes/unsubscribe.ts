/** Shapes of `/api/bag/comments/unsubscribe?token=…`, the signed link in every notification e-mail. */
import { z } from 'zod/v4';

export const notificationKind = z.enum(['reply', 'digest', 'follow']);

export const tokenQuery = { token: z.string().describe('the signed token of the e-mail link') };

/** GET: a confirmation page (HTML) that changes nothing. */
export const confirmPage = z.string().describe('text/html: a confirmation page with a one-click form');

/** RFC 8058 one-click form field; a POST needs nothing else but the token. */
export const unsubscribeBody = z.object({ 'List-Unsubscribe': z.literal('One-Click').optional() });

/** JSON for programs, an HTML page for a person who pressed the button (`Accept: text/html`). */
export const unsubscribed = z.object({ data: z.object({ unsubscribed: z.literal(true), kind: notificationKind }) });
export const unsubscribeResponse = z.union([unsubscribed, z.string().describe('text/html: the done page')]);
