import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';

const UID = 'plugin::cms-plugin-bag.page';
const POPULATE = ['cover'];

const pageController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'content').findPublished(UID, ctx.query, ctx.state.auth, {
      defaultPopulate: POPULATE,
      defaultSort: [{ publishedAt: 'desc' }],
    });
  },
  async findOne(ctx: Context) {
    const page = await getService(strapi, 'content').viewPublishedBySlug(UID, ctx.params.slug, ctx.state.auth, POPULATE);
    if (!page) throw new errors.NotFoundError('Page not found');
    ctx.body = { data: page };
  },
});

export default pageController;
