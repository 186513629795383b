import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { FEED_TYPES, type FeedFormat } from './feeds.service';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { parseIdentifier } from '../../platform/shapes/common';
import { commentFeedRequest } from '../comments';
import { feedRequest } from './feeds.shapes';

/** Feeds of the newest published articles (docs/discovery.md#feeds). */
const feedController = ({ strapi }: { strapi: Core.Strapi }) => {
  /** `category` and `tag`: an empty one is absent. */
  const serve = (format: FeedFormat) =>
    checked(feedRequest, async (ctx: Context, { query }) => {
      const { locale, category, tag } = query;
      const body = await getService(strapi, 'discovery-feeds').render(format, { locale, category: category || undefined, tag: tag || undefined });
      ctx.type = FEED_TYPES[format];
      ctx.body = body;
    });
  return {
    rss: serve('rss'),
    atom: serve('atom'),
    json: serve('json'),
    /** An article's newest comments (docs/comments.md#comment-feed). */
    comments: checked(commentFeedRequest, async (ctx, { params, query }) => {
      const body = await getService(strapi, 'discovery-comment-feed').rss(parseIdentifier(params.id), query.locale);
      ctx.type = FEED_TYPES.rss;
      ctx.body = body;
    }),
  };
};

export default feedController;
