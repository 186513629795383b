import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { fieldError } from '../domain/errors';
import { FEED_TYPES, type FeedFormat } from '../services/discovery/feeds';
import { getService } from '../services/get-service';

/** A slug parameter: absent, or one string (`?tag=a&tag=b` → 400 naming it). */
const slugParam = (ctx: Context, name: string): string | undefined => {
  const value = ctx.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw fieldError(name, 'must be one slug', `${name} must be one slug`);
  return value;
};

/** Feeds of the newest published articles (CONTRACT §9). */
const feedController = ({ strapi }: { strapi: Core.Strapi }) => {
  const serve = async (ctx: Context, format: FeedFormat) => {
    const body = await getService(strapi, 'discovery-feeds').render(
      format,
      { locale: ctx.query.locale, category: slugParam(ctx, 'category'), tag: slugParam(ctx, 'tag') },
      ctx.origin
    );
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
  };
};

export default feedController;
