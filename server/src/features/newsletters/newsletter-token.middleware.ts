/**
 * Takes the token out of a mailed newsletter link's URL (`/api/bag/newsletters/confirm?token=…`, `…/unsubscribe?token=…`)
 * before the host's middlewares see the request, as features/comments/unsubscribe-token.middleware.ts does for comment
 * mails: `strapi::logger` writes `ctx.url`, and a token in the log would let its reader act for the link's owner.
 * The token waits in `ctx.state` for the controller (`linkTokenOf`). Registered with `strapi.server.use`.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';

const STATE_KEY = 'cmsPluginBagNewsletterToken';

const normalize = (path: string): string => {
  try {
    return decodeURIComponent(path).toLowerCase().replace(/\/+$/, '');
  } catch {
    return path.toLowerCase();
  }
};

/** The token of the link: from the URL, else the body's `token` (a JSON or form POST). */
export const linkTokenOf = (ctx: Context): unknown => {
  const fromUrl = ctx.state[STATE_KEY];
  if (fromUrl !== undefined) return fromUrl;
  const body = ctx.request.body as Record<string, unknown> | undefined;
  return body && typeof body === 'object' ? body.token : undefined;
};

const newsletterToken = ({ strapi }: { strapi: Core.Strapi }) => {
  const prefix = String(strapi.config.get('api.rest.prefix', '/api')).replace(/\/$/, '');
  const paths = new Set([normalize(`${prefix}/bag/newsletters/confirm`), normalize(`${prefix}/bag/newsletters/unsubscribe`)]);
  return async (ctx: Context, next: Next) => {
    if (paths.has(normalize(ctx.path))) {
      ctx.state[STATE_KEY] = ctx.query.token;
      ctx.url = ctx.path;
    }
    await next();
  };
};

export default newsletterToken;
