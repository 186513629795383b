/** Who sent a request, for the re-authentication's rate limits (a 429 names when to retry). */
import type { Context } from 'koa';
import type { Requester } from './reauthentication';
import { clientInfo } from '../../platform/client';

export const requesterOf = (ctx: Context): Requester => ({
  client: clientInfo(ctx),
  setRetryAfter: (seconds) => ctx.set('Retry-After', String(seconds)),
});
