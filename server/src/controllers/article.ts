import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';

const UID = 'plugin::cms-plugin-bag.article';
const POPULATE = ['category', 'tags', 'cover', 'author'];

const articleController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'content').findPublished(UID, ctx.query, ctx.state.auth, {
      defaultPopulate: POPULATE,
      defaultSort: [{ isTop: 'desc' }, { publishedAt: 'desc' }],
    });
  },
  async findOne(ctx: Context) {
    const article = await getService(strapi, 'content').viewPublishedBySlug(UID, ctx.params.slug, ctx.state.auth, POPULATE);
    if (!article) throw new errors.NotFoundError('Article not found');
    ctx.body = { data: article };
  },
});

export default articleController;
