/** Following an article's thread: `GET`/`POST`/`DELETE /api/bag/articles/:id/subscription` (Bearer). */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { parseIdentifier } from './comments.validation';

/** The token's user; the routes are granted to Public so that a request without a token gets this 401, not a 403. */
const userOf = (ctx: Context): number => {
  const user = ctx.state.user as { id: number } | undefined;
  if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user.id;
};

const commentFollowController = ({ strapi }: { strapi: Core.Strapi }) => {
  const followers = () => getService(strapi, 'comment-followers');
  return {
    async status(ctx: Context) {
      const user = userOf(ctx);
      ctx.body = await followers().subscription(parseIdentifier(ctx.params.id), user);
    },
    async subscribe(ctx: Context) {
      const user = userOf(ctx);
      ctx.body = await followers().subscribe(parseIdentifier(ctx.params.id), user);
    },
    async unsubscribe(ctx: Context) {
      const user = userOf(ctx);
      ctx.body = await followers().unsubscribe(parseIdentifier(ctx.params.id), user);
    },
  };
};

export default commentFollowController;
