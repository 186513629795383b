/**
 * Route middleware: counts the request against `rateLimit.<limit>` per client IP (IPv6: per /64) and, when the route
 * has an identifier (login: `identifier`; send-code: the address), per lower-cased identifier too; either counter over
 * its max → 429 with Retry-After. The IP counter counts every request. A request the IP counter refuses never touches
 * the identifier's counter, so one client cannot fill another's.
 *
 * Login (`escalate`) counts failed attempts only, and per account rather than per string typed (see
 * `loginFailureSubject`): the hit is taken before the handler (so concurrent attempts stay bounded) and given back
 * when the login succeeds. Past the max the account is in escalation: a login carrying a captcha goes on (the handler
 * checks it against `login.escalation.type`, see `captchaEscalated` in platform/auth.ts), one without gets the 429 with
 * `details: { captcha: 'required' }`, so an attacker's failures cannot lock the owner out.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context, Next } from 'koa';
import type { RateLimitName } from './config/schema';
import { markCaptchaEscalated, normalizeEmail } from './auth';
import { clientInfo, rateLimitAddress } from './client';
import { getService } from './get-service';

export interface RateLimitMiddlewareConfig {
  limit: RateLimitName;
  /** Body field holding the identifier counted separately (e.g. `identifier`, `email`). */
  identifierField?: string;
  /** Login: failures only on the identifier's counter, and a captcha instead of a refusal past its max. */
  escalate?: boolean;
}

/** What the counters need of a request, from a route's koa context or a GraphQL mutation's arguments. */
export interface CountedRequest {
  ip: string;
  /** The fields sent: the identifier (`identifierField`) and, for an escalated login, `code`. */
  body: Record<string, unknown>;
  /** Sets the response's Retry-After header (seconds). */
  setRetryAfter(seconds: number): void;
}

const refuse = (request: CountedRequest, retryAfter: number, details?: Record<string, unknown>): never => {
  request.setRetryAfter(retryAfter);
  throw new errors.RateLimitError(undefined, details);
};

/**
 * Counts `request` against `rateLimit.<limit>` (refusing it past a max, see the module) and runs `handle`, told
 * whether the login is in escalation. Shared by the route middleware and the host's GraphQL auth mutations' guard.
 */
export const countRequest = async <T>(
  strapi: Core.Strapi,
  { limit, identifierField, escalate = false }: RateLimitMiddlewareConfig,
  request: CountedRequest,
  handle: (escalated: boolean) => Promise<T>,
): Promise<T> => {
  const config = await getService(strapi, 'settings').get();
  const limiter = getService(strapi, 'rate-limit');
  const byIp = await limiter.check(limit, `ip:${rateLimitAddress(request.ip)}`, config);
  if (!byIp.allowed) refuse(request, byIp.retryAfter);

  const identifier = identifierField ? request.body[identifierField] : undefined;
  if (typeof identifier !== 'string' || identifier.trim() === '') return handle(false);
  const subject = escalate
    ? await getService(strapi, 'accounts').loginFailureSubject(identifier)
    : `id:${normalizeEmail(identifier.trim())}`;
  const byIdentifier = await limiter.check(limit, subject, config);
  let escalated = false;
  if (!byIdentifier.allowed) {
    const code = request.body.code;
    if (!escalate || typeof code !== 'string' || code === '') refuse(request, byIdentifier.retryAfter, escalate ? { captcha: 'required' } : undefined);
    escalated = true;
  }
  const result = await handle(escalated);
  // Reached only when the handler did not throw: a successful login is not a failed attempt.
  if (escalate) await limiter.giveBack(limit, subject, config);
  return result;
};

const rateLimitMiddleware =
  (options: RateLimitMiddlewareConfig, { strapi }: { strapi: Core.Strapi }) =>
  async (ctx: Context, next: Next) => {
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const request: CountedRequest = {
      ip: clientInfo(ctx).ip,
      body: typeof body === 'object' && body !== null ? body : {},
      setRetryAfter: (seconds) => ctx.set('Retry-After', String(seconds)),
    };
    await countRequest(strapi, options, request, async (escalated) => {
      if (escalated) markCaptchaEscalated(ctx);
      await next();
    });
  };

export default rateLimitMiddleware;
