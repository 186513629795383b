/** `/api/bag/comments` (+ `/counts`, `/:id/replies`) and `/api/bag/articles/:id/comments` (tree or page). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';
import { sendDeepJson } from '../utils/json';
import { parseIdentifier } from '../validation/comment';
import { parseCountArticles, wantsPage } from '../validation/thread';

const commentController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async create(ctx: Context) {
    const comment = await getService(strapi, 'comments').create(ctx.request.body, ctx.state.user);
    ctx.status = 201;
    ctx.body = { data: comment };
  },

  async findByArticle(ctx: Context) {
    if (wantsPage(ctx.query)) {
      // Any paging parameter asks for a page of roots; without them the whole tree, as before.
      ctx.body = await getService(strapi, 'comment-threads').rootsPage(parseIdentifier(ctx.params.id), ctx.query);
      return;
    }
    await sendDeepJson(ctx, await getService(strapi, 'comments').tree(parseIdentifier(ctx.params.id)));
  },

  async replies(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    const threads = getService(strapi, 'comment-threads');
    ctx.body = await threads.replies(parseIdentifier(ctx.params.id), threads.parseRepliesQuery(ctx.query, config));
  },

  async counts(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'comment-threads').counts(parseCountArticles(ctx.query)) };
  },
});

export default commentController;
