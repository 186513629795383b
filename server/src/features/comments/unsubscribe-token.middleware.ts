/**
 * Takes the token out of a mailed link's URL (`/api/bag/comments/unsubscribe?token=…`, and the e-mail change's revert
 * link `/api/cms-plugin-bag/auth/email/revert?token=…`) before the host's
 * middlewares see the request. `strapi::logger` writes `ctx.url` once the response is done, and a token in its line
 * would let whoever reads the host's logs unsubscribe the link's owner; so the URL goes on without its query string and
 * the token waits in `ctx.state` for the controller (`unsubscribeTokenOf`). Registered with `strapi.server.use`, so it
 * runs before the logger whatever the app's middleware order.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';

const STATE_KEY = 'cmsPluginBagUnsubscribeToken';
const REVERT_STATE_KEY = 'cmsPluginBagEmailRevertToken';

/** The path as the router matches it: percent-decoded, case-insensitive. */
const normalize = (path: string): string => {
  try {
    return decodeURIComponent(path).toLowerCase().replace(/\/+$/, '');
  } catch {
    return path.toLowerCase();
  }
};

/** The token the link carried: a string, or anything else (absent, repeated) for the service to refuse. */
export const unsubscribeTokenOf = (ctx: Context): unknown => ctx.state[STATE_KEY];

/** The token of an e-mail change's revert link, as `unsubscribeTokenOf`. */
export const emailRevertTokenOf = (ctx: Context): unknown => ctx.state[REVERT_STATE_KEY];

const unsubscribeToken = ({ strapi }: { strapi: Core.Strapi }) => {
  const prefix = String(strapi.config.get('api.rest.prefix', '/api')).replace(/\/$/, '');
  const keys = new Map([
    [normalize(`${prefix}/bag/comments/unsubscribe`), STATE_KEY],
    [normalize(`${prefix}/cms-plugin-bag/auth/email/revert`), REVERT_STATE_KEY],
  ]);

  return async (ctx: Context, next: Next) => {
    const key = keys.get(normalize(ctx.path));
    if (key) {
      ctx.state[key] = ctx.query.token;
      ctx.url = ctx.path;
    }
    await next();
  };
};

export default unsubscribeToken;
