/** `/api/bag/comments` and `/api/bag/articles/:id/comments`. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';
import { sendDeepJson } from '../utils/json';
import { parseIdentifier, validateCommentBody } from '../validation/comment';

const commentController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async create(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    const input = validateCommentBody(ctx.request.body, config.comments.maxLength);
    const user = ctx.state.user as { id: number; documentId: string } | undefined;
    const comment = await getService(strapi, 'comments').submit(
      input,
      user ? { id: user.id, documentId: user.documentId } : null,
      config
    );
    ctx.status = 201;
    ctx.body = { data: comment };
  },

  async findByArticle(ctx: Context) {
    await sendDeepJson(ctx, await getService(strapi, 'comments').tree(parseIdentifier(ctx.params.id)));
  },
});

export default commentController;
