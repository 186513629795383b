/**
 * Route middleware the plugin puts on the host's own login, register and forgot-password routes
 * (`auth.hostRoutes: 'guarded'`, see host-auth-routes.ts): the plugin's captcha, checked before the host's handler.
 * The host refuses fields it does not know (register, forgot-password), so `key` and `code` are taken out of the
 * body once read.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import type { HostAuthRoute } from '../services/accounts';
import { getService } from '../utils/get-service';
import { validateCaptchaFields } from '../validation/auth';
import { captchaEscalated } from './rate-limit';

export interface HostAuthMiddlewareConfig {
  route: HostAuthRoute;
}

const hostAuthMiddleware =
  ({ route }: HostAuthMiddlewareConfig, { strapi }: { strapi: Core.Strapi }) =>
  async (ctx: Context, next: Next) => {
    const body: unknown = ctx.request.body;
    // Not an object: nothing to check here, the host's own validation answers it.
    const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const captcha = await validateCaptchaFields(fields);
    delete fields.key;
    delete fields.code;
    await getService(strapi, 'accounts').guardHostRoute(route, fields, captcha, captchaEscalated(ctx));
    await next();
  };

export default hostAuthMiddleware;
