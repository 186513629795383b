/**
 * Route middleware the plugin puts on the host's own login, register and forgot-password routes
 * (`auth.hostRoutes: 'guarded'`, see features/accounts/host-auth-routes.ts): the plugin's captcha, checked before the host's handler.
 * The host refuses fields it does not know (register, forgot-password), so `key` and `code` are taken out of the
 * body once read.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import type { HostAuthRoute } from '../../platform/auth';
import { getService } from '../../platform/get-service';
import { captchaAnswer } from './auth.shapes';
import { parseShape } from '../../platform/shapes/parse';
import { captchaEscalated, normalizeEmail } from '../../platform/auth';
import { clientInfo } from '../../platform/client';
import { idAndEmailOf } from './users.data';
import type { RateLimitMiddlewareConfig } from '../../platform/rate-limit.middleware';

export interface HostAuthMiddlewareConfig {
  route: HostAuthRoute;
}

/**
 * Per host auth action, REST route or GraphQL mutation (features/graphql/host-auth.ts): the same counters as the plugin's
 * route doing the same thing (forgot-password sends a mail, as send-code).
 */
export const HOST_AUTH_LIMITS: Record<HostAuthRoute, RateLimitMiddlewareConfig> = {
  login: { limit: 'login', identifierField: 'identifier', escalate: true },
  register: { limit: 'register', identifierField: 'email' },
  forgotPassword: { limit: 'sendCode', identifierField: 'email' },
};

/** `auth.hostRoutes` (a config/plugins.ts key, read at start-up). */
export const hostAuthGuarded = (strapi: Core.Strapi) => getService(strapi, 'settings').file().auth.hostRoutes === 'guarded';


/**
 * The captcha check of a host auth route (`key` and `code` taken out of `fields` once read). Shared by the route
 * middleware and the guard of the host's GraphQL auth mutations (features/graphql/host-auth.ts). The `email` the host gets is
 * normalized as the plugin's own routes compare it (`normalizeEmail`): the host only lower-cases it.
 */
export const checkHostCaptcha = async (strapi: Core.Strapi, route: HostAuthRoute, fields: Record<string, unknown>, escalated: boolean) => {
  const captcha = parseShape(captchaAnswer, fields);
  delete fields.key;
  delete fields.code;
  if (route !== 'login' && typeof fields.email === 'string') fields.email = normalizeEmail(fields.email);
  await getService(strapi, 'accounts').guardHostRoute(route, fields, captcha, escalated);
};

const hostAuthMiddleware =
  ({ route }: HostAuthMiddlewareConfig, { strapi }: { strapi: Core.Strapi }) =>
  async (ctx: Context, next: Next) => {
    const body: unknown = ctx.request.body;
    // Not an object: nothing to check here, the host's own validation answers it.
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    await checkHostCaptcha(strapi, route, fields, captchaEscalated(ctx));
    await next();
    await recordHostSignIn(strapi, route, ctx);
  };

/**
 * A sign-in through the host's own login (or register) is a sign-in of the account all the same: its device is
 * remembered and a new one alerts the account, as on the plugin's routes (register records without a mail).
 */
const recordHostSignIn = async (strapi: Core.Strapi, route: HostAuthRoute, ctx: Context) => {
  if (route === 'forgotPassword' || ctx.status !== 200) return;
  const answer = ctx.body as { jwt?: unknown; user?: { id?: unknown } } | undefined;
  if (typeof answer?.jwt !== 'string' || typeof answer.user?.id !== 'number') return;
  const user = await idAndEmailOf(strapi, answer.user.id);
  if (!user) return;
  const config = await getService(strapi, 'settings').get();
  await getService(strapi, 'sign-in-alerts').record(user, clientInfo(ctx), config, route === 'login');
};

export default hostAuthMiddleware;
