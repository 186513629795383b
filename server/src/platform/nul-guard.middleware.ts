/**
 * A NUL character (`%00`) in the path or the query string of a request to the plugin's routes is answered 400 before
 * anything reads it. No slug, id or filter value can hold one, and PostgreSQL refuses it in any text parameter
 * (`invalid byte sequence for encoding "UTF8": 0x00`), which would surface as a 500. Registered with
 * `strapi.server.use` (outside the host's error middleware), so it writes the host's error shape itself.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { PLUGIN_ID } from './plugin-id';

const NUL = /%00/i;

const nulGuard = ({ strapi }: { strapi: Core.Strapi }) => {
  const prefix = String(strapi.config.get('api.rest.prefix', '/api')).replace(/\/$/, '');
  const guarded = [`${prefix}/bag/`, `${prefix}/${PLUGIN_ID}/`];

  return async (ctx: Context, next: Next) => {
    if (NUL.test(ctx.url) && guarded.some((start) => ctx.url.startsWith(start))) {
      ctx.status = 400;
      ctx.body = {
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid request: NUL characters are not allowed', details: {} },
      };
      return;
    }
    await next();
  };
};

export default nulGuard;
