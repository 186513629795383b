import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { DETAILS } from './content.service';
import { getService } from '../../platform/get-service';
import { answerMoved } from '../redirects';

const { uid: UID, populate: POPULATE } = DETAILS.page;

const pageController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'content').findPublished(UID, ctx.query, ctx.state.auth, {
      defaultPopulate: [...POPULATE],
      defaultSort: [{ publishedAt: 'desc' }],
      locale: ctx.query.locale,
    });
  },
  async findOne(ctx: Context) {
    const options = { locale: ctx.query.locale };
    const found = await getService(strapi, 'content').resolveDetail('page', String(ctx.params.slug), ctx.state.auth, options);
    if (found.redirect) answerMoved(ctx, found.redirect);
    else ctx.body = { data: found.data };
  },
});

export default pageController;
