/** Shapes of the readers' routes: the view beacon, popular and related articles (docs/readers.md). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';
import { queryInteger } from '../../platform/shapes/common';
import { article, localeParam, localeQuery } from '../content';

export const PERIODS = ['1d', '7d', '30d', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const MAX_POPULAR = 50;
export const MAX_RELATED = 20;

const text = (what: string) => z.string({ error: `${what} must be a string` });

/** `POST /bag/views`: `{ type: "article" | "page", slug, locale? }`. */
export const beaconBody = lazyShape(() => z.object({
  type: z.enum(['article', 'page'], { error: 'type must be article or page' }),
  slug: text('slug').trim().min(1, 'slug is required').max(255, 'slug must be at most 255 characters'),
  locale: localeParam,
}));
export const beaconRequest = declareRequest(jsonBody(beaconBody), { first: true });
export const beaconResponse = lazyShape(() => z.object({ counted: z.boolean().describe('false: a bot, or views are counted elsewhere') }));

export const popularQuery = lazyShape(() => ({
  period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` }).optional().default('7d'),
  limit: queryInteger({ max: MAX_POPULAR, fallback: 10, message: `limit must be an integer from 1 to ${MAX_POPULAR}` }),
  category: text('category').optional(),
  ...localeQuery,
}));
export const popularRequest = declareRequest({ query: popularQuery }, { first: true });

export const relatedQuery = lazyShape(() => ({
  limit: queryInteger({ max: MAX_RELATED, fallback: 5, message: `limit must be an integer from 1 to ${MAX_RELATED}` }),
  ...localeQuery,
}));
export const relatedRequest = declareRequest({ params: { slug: z.string() }, query: relatedQuery }, { first: true });

export const popularList = lazyShape(() => z.object({ data: z.array(article.extend({ periodViews: z.number().int() })) }));
export const relatedList = lazyShape(() => z.object({ data: z.array(article) }));
