/** `/api/bag/comments` (+ `/counts`, `/:id/replies`) and `/api/bag/articles/:id/comments` (tree or page). */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';
import { parseIdentifier, validateCommentBody, validateContent, validateMineQuery } from './comments.validation';
import { parseCountArticles, parseRepliesQuery, parseRootsQuery, wantsPage } from './thread.validation';

/**
 * Threads are per article document, the same in every locale: a `locale` query parameter is accepted and has no
 * effect, but an unknown code is refused (400 `Unknown locale supplied`) as on every other route.
 */
const checkLocale = async (strapi: Core.Strapi, ctx: Context) => {
  await getService(strapi, 'locales').resolve(ctx.query.locale);
};

/** The token's user; these routes are granted to Public too, so a request without a token gets the 401 here. */
const signedIn = (ctx: Context): { id: number; documentId: string } => {
  const user = ctx.state.user as { id: number; documentId: string } | undefined;
  if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user;
};

const commentController = ({ strapi }: { strapi: Core.Strapi }) => ({

  async create(ctx: Context) {
    await checkLocale(strapi, ctx);
    // The body is checked against the current settings (400), then submitted; the flood limit is the route's.
    const config = await getService(strapi, 'settings').get();
    const input = validateCommentBody(ctx.request.body, config.comments.maxLength);
    const user = ctx.state.user as { id: number; documentId: string } | undefined;
    const comment = await getService(strapi, 'comments').submit(input, user ? { id: user.id, documentId: user.documentId } : null, config);
    ctx.status = 201;
    ctx.body = { data: comment };
  },

  async edit(ctx: Context) {
    await checkLocale(strapi, ctx);
    const user = signedIn(ctx);
    const config = await getService(strapi, 'settings').get();
    const body = (ctx.request.body ?? {}) as { content?: unknown };
    const content = validateContent(body.content, config.comments.maxLength);
    ctx.body = { data: await getService(strapi, 'comments').edit(parseIdentifier(ctx.params.id), user.id, content, config) };
  },

  async remove(ctx: Context) {
    await checkLocale(strapi, ctx);
    const user = signedIn(ctx);
    await getService(strapi, 'comments').remove(parseIdentifier(ctx.params.id), user.id);
    ctx.body = { message: 'Comment deleted' };
  },

  async mine(ctx: Context) {
    await checkLocale(strapi, ctx);
    const user = signedIn(ctx);
    const { page, pageSize } = validateMineQuery(ctx.query);
    ctx.body = await getService(strapi, 'comments').mine(user.id, page, pageSize);
  },

  async findByArticle(ctx: Context) {
    await checkLocale(strapi, ctx);
    if (wantsPage(ctx.query)) {
      // Any paging parameter asks for a page of roots; without them the whole tree, as before.
      const config = await getService(strapi, 'settings').get();
      const threads = getService(strapi, 'comment-threads');
      ctx.body = await threads.roots(parseIdentifier(ctx.params.id), parseRootsQuery(ctx.query, config, threads.cursors()), config);
      return;
    }
    const { comments } = await getService(strapi, 'settings').get();
    await sendDeepJson(ctx, await getService(strapi, 'comments').tree(parseIdentifier(ctx.params.id), comments.markdown));
  },

  async replies(ctx: Context) {
    await checkLocale(strapi, ctx);
    const config = await getService(strapi, 'settings').get();
    const threads = getService(strapi, 'comment-threads');
    ctx.body = await threads.replies(parseIdentifier(ctx.params.id), parseRepliesQuery(ctx.query, config, threads.cursors()), config);
  },

  async counts(ctx: Context) {
    await checkLocale(strapi, ctx);
    ctx.body = { data: await getService(strapi, 'comment-threads').counts(parseCountArticles(ctx.query)) };
  },
});

export default commentController;
