/** Following an article's thread: `GET`/`POST`/`DELETE /api/bag/articles/:id/subscription` (Bearer). */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { parseIdentifier } from '../../platform/shapes/common';
import { subscriptionRequest } from './comment-follow.shapes';

/** The token's user; the routes are granted to Public so that a request without a token gets this 401, not a 403. */
const userOf = (ctx: Context): number => {
  const user = ctx.state.user as { id: number } | undefined;
  if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user.id;
};

const commentFollowController = ({ strapi }: { strapi: Core.Strapi }) => {
  const followers = () => getService(strapi, 'comment-followers');
  return {
    status: checked(subscriptionRequest, async (ctx, { params }) => {
      const user = userOf(ctx);
      ctx.body = await followers().subscription(parseIdentifier(params.id), user);
    }),
    subscribe: checked(subscriptionRequest, async (ctx, { params }) => {
      const user = userOf(ctx);
      ctx.body = await followers().subscribe(parseIdentifier(params.id), user);
    }),
    unsubscribe: checked(subscriptionRequest, async (ctx, { params }) => {
      const user = userOf(ctx);
      ctx.body = await followers().unsubscribe(parseIdentifier(params.id), user);
    }),
  };
};

export default commentFollowController;
