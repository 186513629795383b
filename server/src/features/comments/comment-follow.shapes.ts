/** Shapes of following a thread (`/api/bag/articles/:id/subscription`) and of its comment feed (`…/comments.rss`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
// The shape file itself, not content's index.ts: the index loads content's document middlewares, which load this
// feature's index and so this file again before it has run (a cycle that leaves its shapes undefined).
import { localeQuery } from '../content/content.shapes';

export const subscriptionResponse = lazyShape(() => z.object({ subscribed: z.boolean().describe('Whether the user follows the thread') }));

export const commentFeedQuery = localeQuery;
export const commentFeedDocument = lazyShape(() => z.string().describe("An RSS 2.0 document of the article's 50 newest comments (application/rss+xml)"));
