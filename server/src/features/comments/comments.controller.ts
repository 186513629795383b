/** `/api/bag/comments` (+ `/counts`, `/:id/replies`) and `/api/bag/articles/:id/comments` (tree or page). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';
import { checked } from '../../platform/request-check';
import { parseIdentifier, toIdentifier } from '../../platform/shapes/common';
import * as shapes from './comments.shapes';
import { pageQueryOf } from './thread';
import { forViewer } from './thread-viewer';
import { clientInfo } from '../../platform/client';

/**
 * Threads are per article document, the same in every locale: a `locale` query parameter is accepted and has no
 * effect, but an unknown code is refused (400 `Unknown locale supplied`) as on every other route.
 */
const checkLocale = async (strapi: Core.Strapi, locale: unknown) => {
  await getService(strapi, 'locales').resolve(locale);
};

/** The token's user (the routes that need one have the `signed-in` middleware). */
const userOf = (ctx: Context) => ctx.state.user as { id: number; documentId: string };

/** Any paging parameter asks for a page of roots; without them the whole tree, as before. */
const wantsPage = (query: Record<string, unknown>): boolean => query.pagination !== undefined || query.sort !== undefined || query.after !== undefined;

const commentController = ({ strapi }: { strapi: Core.Strapi }) => ({
  // The body is checked against the current settings (400), then submitted; the flood limit is the route's.
  create: checked(shapes.createRequest, async (ctx, { query, body }) => {
    await checkLocale(strapi, query.locale);
    const config = await getService(strapi, 'settings').get();
    const user = ctx.state.user as { id: number; documentId: string } | undefined;
    const comment = await getService(strapi, 'comments').submit(body, user ? { id: user.id, documentId: user.documentId } : null, config);
    ctx.status = 201;
    ctx.body = { data: comment };
  }),

  edit: checked(shapes.editRequest, async (ctx, { params, query, body }) => {
    await checkLocale(strapi, query.locale);
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comments').edit(parseIdentifier(params.id), userOf(ctx).id, body.content, config) };
  }),

  remove: checked(shapes.removeRequest, async (ctx, { params, query }) => {
    await checkLocale(strapi, query.locale);
    await getService(strapi, 'comments').remove(parseIdentifier(params.id), userOf(ctx).id);
    ctx.body = { message: 'Comment deleted' };
  }),

  mine: checked(shapes.mineRequest, async (ctx, { query }) => {
    await checkLocale(strapi, query.locale);
    ctx.body = await getService(strapi, 'comments').mine(userOf(ctx).id, query.pagination.page, query.pagination.pageSize);
  }),

  findByArticle: checked(shapes.threadRequest, async (ctx, { params, query }) => {
    await checkLocale(strapi, query.locale);
    const config = await getService(strapi, 'settings').get();
    if (wantsPage(ctx.query)) {
      const threads = getService(strapi, 'comment-threads');
      const page = await threads.roots(parseIdentifier(params.id), pageQueryOf(query, threads.cursors(), config.comments.thread), config);
      ctx.body = await forViewer(strapi, page, ctx.state.user, clientInfo(ctx), config);
      return;
    }
    await sendDeepJson(ctx, await getService(strapi, 'comments').tree(parseIdentifier(params.id), config.comments.markdown));
  }),

  replies: checked(shapes.repliesRequest, async (ctx, { params, query }) => {
    await checkLocale(strapi, query.locale);
    const config = await getService(strapi, 'settings').get();
    const threads = getService(strapi, 'comment-threads');
    const page = await threads.replies(parseIdentifier(params.id), pageQueryOf(query, threads.cursors(), config.comments.thread), config);
    ctx.body = await forViewer(strapi, page, ctx.state.user, clientInfo(ctx), config);
  }),

  counts: checked(shapes.countsRequest, async (ctx, { query }) => {
    await checkLocale(strapi, query.locale);
    ctx.body = { data: await getService(strapi, 'comment-threads').counts(query.articles.map((key) => ({ key, id: toIdentifier(key) }))) };
  }),
});

export default commentController;
