/** Shapes of the newsletter routes (docs/newsletters.md): the public list, subscribing, confirming, unsubscribing, the account's choices. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { checkedElsewhere, declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { BODY_NOT_OBJECT, email, text } from '../../platform/shapes/fields';
import { localeParam } from '../../platform/shapes/common';

const body = <T extends z.ZodRawShape>(fields: T) => z.object(fields, { error: BODY_NOT_OBJECT });

export const newsletterItem = lazyShape(() => z.object({
  documentId: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  categories: z.array(z.object({ slug: z.string(), title: z.string() })),
}));
export const newsletterList = lazyShape(() => z.object({ data: z.array(newsletterItem) }));

const slugs = lazyShape(() => z.array(text(), { error: 'must be a list of newsletter slugs' }).min(1, 'must name at least one newsletter').max(50));

export const subscribeBody = lazyShape(() => body({ newsletters: slugs, email: email().optional(), locale: localeParam }));
export const message = lazyShape(() => z.object({ message: z.string() }));
export const subscription = lazyShape(() => z.object({ newsletter: z.string().describe('the newsletter slug'), locale: z.string() }));
export const subscriptionList = lazyShape(() => z.object({ data: z.array(subscription) }));
export const subscribeResponse = lazyShape(() => z.union([message, subscriptionList]));

/** Read by newsletter-token.middleware.ts, which takes it out of the URL before anything logs it. */
export const tokenQuery = lazyShape(() => ({ token: checkedElsewhere(z.string().optional().describe('the token of the mailed link')) }));
export const tokenBody = checkedElsewhere(lazyShape(() => z.object({
  token: z.string().optional(),
  'List-Unsubscribe': z.literal('One-Click').optional(),
})));
export const page = lazyShape(() => z.string().describe('text/html: a page with a button that posts back; changes nothing'));

export const setSubscriptionsBody = lazyShape(() => body({ newsletters: z.array(text(), { error: 'must be a list of newsletter slugs' }).max(50), locale: localeParam }));

export const subscribeRequest = declareRequest(jsonBody(subscribeBody), { first: true });
export const tokenPageRequest = declareRequest({ query: tokenQuery });
export const tokenPostRequest = declareRequest({ query: tokenQuery, ...jsonBody(tokenBody) });
export const setSubscriptionsRequest = declareRequest(jsonBody(setSubscriptionsBody), { first: true });

export type SubscribeBody = z.output<typeof subscribeBody>;
