/** `GET /api/bag/comments/unsubscribe?token=…`: the link in every notification e-mail. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';

const commentUnsubscribeController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async unsubscribe(ctx: Context) {
    const { kind } = await getService(strapi, 'comment-notifications').unsubscribe(ctx.query.token);
    ctx.body = { data: { unsubscribed: true, kind } };
  },
});

export default commentUnsubscribeController;
