import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { FEED_TYPES, type FeedFormat } from './feeds.service';
import { getService } from '../../platform/get-service';
import { parseIdentifier } from '../comments';
import { validateFeedQuery } from './feeds.validation';

/** Feeds of the newest published articles (docs/discovery.md#feeds). */
const feedController = ({ strapi }: { strapi: Core.Strapi }) => {
  const serve = async (ctx: Context, format: FeedFormat) => {
    const body = await getService(strapi, 'discovery-feeds').render(format, validateFeedQuery(ctx.query));
    ctx.type = FEED_TYPES[format];
    ctx.body = body;
  };
  return {
    async rss(ctx: Context) {
      await serve(ctx, 'rss');
    },
    async atom(ctx: Context) {
      await serve(ctx, 'atom');
    },
    async json(ctx: Context) {
      await serve(ctx, 'json');
    },
    /** An article's newest comments (docs/comments.md#comment-feed). */
    async comments(ctx: Context) {
      const body = await getService(strapi, 'discovery-comment-feed').rss(parseIdentifier(ctx.params.id), ctx.query.locale);
      ctx.type = FEED_TYPES.rss;
      ctx.body = body;
    },
  };
};

export default feedController;
