/** Moderation API for the admin panel (`/cms-plugin-bag/comments…`), guarded by `comments.moderate`. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';
import { validateAdminListQuery, validateContent, validateStatusBody } from '../validation/comment';

const adminCommentController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'comments').adminList(validateAdminListQuery(ctx.query));
  },

  async setStatus(ctx: Context) {
    const { documentIds, status } = validateStatusBody(ctx.request.body);
    ctx.body = { data: { updated: await getService(strapi, 'comments').setStatus(documentIds, status) } };
  },

  async reply(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    const body = (ctx.request.body ?? {}) as { content?: unknown };
    const content = validateContent(body.content, config.comments.maxLength);
    ctx.body = { data: await getService(strapi, 'comments').adminReply(String(ctx.params.documentId), content) };
  },
});

export default adminCommentController;
