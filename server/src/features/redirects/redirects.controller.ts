/** `GET /api/bag/redirects`, and the 301 a detail answers for an old slug (docs/redirects.md). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import type { MovedTo } from './redirects.service';
import { getService } from '../../platform/get-service';

/**
 * 301 to the same route with the current slug, the query kept. `Location` is relative to the request's own URL (its
 * path and query as received), so no `Host` or forwarded header goes into it.
 */
export const answerMoved = (ctx: Context, moved: MovedTo) => {
  const base = ctx.path.slice(0, ctx.path.lastIndexOf('/') + 1);
  ctx.status = 301;
  ctx.set('Location', `${base}${encodeURIComponent(moved.slug)}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  ctx.body = { data: null, redirect: moved };
};

const redirectController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'redirects').list() };
  },
});

export default redirectController;
