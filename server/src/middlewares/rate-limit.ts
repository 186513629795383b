/**
 * Route middleware: counts the request against `rateLimit.<limit>` per client IP and, when the route has an
 * identifier (login: `identifier`; send-code: the address), per lower-cased identifier too. Every request counts,
 * refused ones included; either counter over its max → 429 with Retry-After.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context, Next } from 'koa';
import type { RateLimitName } from '../config/schema';
import { clientInfo } from '../utils/client';
import { getService } from '../utils/get-service';

export interface RateLimitMiddlewareConfig {
  limit: RateLimitName;
  /** Body field holding the identifier counted separately (e.g. `identifier`, `email`). */
  identifierField?: string;
}

const rateLimitMiddleware =
  ({ limit, identifierField }: RateLimitMiddlewareConfig, { strapi }: { strapi: Core.Strapi }) =>
  async (ctx: Context, next: Next) => {
    const config = await getService(strapi, 'settings').get();
    const limiter = getService(strapi, 'rate-limit');
    const results = [await limiter.check(limit, `ip:${clientInfo(ctx).ip}`, config)];

    const body = ctx.request.body as Record<string, unknown> | undefined;
    const identifier = identifierField ? body?.[identifierField] : undefined;
    if (typeof identifier === 'string' && identifier.trim() !== '') {
      results.push(await limiter.check(limit, `id:${identifier.trim().toLowerCase()}`, config));
    }

    const refused = results.filter((result) => !result.allowed);
    if (refused.length > 0) {
      ctx.set('Retry-After', String(Math.max(...refused.map((result) => result.retryAfter))));
      throw new errors.RateLimitError();
    }
    await next();
  };

export default rateLimitMiddleware;
