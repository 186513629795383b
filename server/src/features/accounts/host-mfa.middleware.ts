/**
 * Route middleware the plugin puts on the host's routes that answer a jwt without a password check of their own
 * (`auth.hostRoutes: 'guarded'`, see features/accounts/host-auth-routes.ts): reset-password, e-mail confirmation and the
 * provider callback. After the host's handler, an account with a second factor gets the answer without its tokens.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { getService } from '../../platform/get-service';

const hostMfaMiddleware =
  (_config: unknown, { strapi }: { strapi: Core.Strapi }) =>
  async (ctx: Context, next: Next) => {
    await next();
    ctx.body = await getService(strapi, 'mfa').withholdTokens(ctx.body);
  };

export default hostMfaMiddleware;
