/** Shapes of following a thread (`/api/bag/articles/:id/subscription`) and of its comment feed (`…/comments.rss`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { localeQuery } from '../../platform/shapes/common';
import { declareRequest } from '../../platform/request-check';
import { idParams } from './comments.shapes';

export const subscriptionResponse = lazyShape(() => z.object({ subscribed: z.boolean().describe('Whether the user follows the thread') }));

export const commentFeedQuery = localeQuery;
export const commentFeedDocument = lazyShape(() => z.string().describe("An RSS 2.0 document of the article's 50 newest comments (application/rss+xml)"));

export const subscriptionRequest = declareRequest({ params: idParams }, { first: true });
export const commentFeedRequest = declareRequest({ params: idParams, query: commentFeedQuery }, { first: true });
