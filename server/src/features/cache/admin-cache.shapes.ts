/** Shapes of the response cache's admin routes (`/cms-plugin-bag/cache`, `/cms-plugin-bag/cache/clear`). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { checkedElsewhere } from '../../platform/shapes/fields';
import { jsonBody } from '../../platform/route-types';

const typeStats = lazyShape(() => z.object({ type: z.string(), hits: z.number().int(), misses: z.number().int(), hitRatio: z.number() }));

export const cacheStats = lazyShape(() => z.object({
  enabled: z.boolean(),
  maxBytes: z.number().int(),
  bytes: z.number().int(),
  entries: z.number().int(),
  types: z.array(typeStats),
}));

export const cacheStatsResponse = lazyShape(() => z.object({ data: cacheStats }));

/** The clear takes no input: a body is not read (so not refused either). */
export const cacheClearBody = checkedElsewhere(lazyShape(() => z.object({}).strict()));
export const cacheClearRequest = jsonBody(cacheClearBody);

export type CacheStats = z.infer<typeof cacheStats>;
