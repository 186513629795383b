import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { DETAILS } from './content.service';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { bySlugRequest, listRequest } from './content.shapes';
import { answerMoved } from '../redirects';
import { readerCounter } from './reader-views';

const { uid: UID, populate: POPULATE } = DETAILS.page;

const pageController = ({ strapi }: { strapi: Core.Strapi }) => ({
  // The REST parameters go on as they came: the host's checks (features/content/query-checks.ts) word their refusals.
  find: checked(listRequest, async (ctx, { query }) => {
    ctx.body = await getService(strapi, 'content').findPublished(UID, ctx.query, ctx.state.auth, {
      defaultPopulate: [...POPULATE],
      defaultSort: [{ publishedAt: 'desc' }],
      locale: query.locale,
    });
  }),
  findOne: checked(bySlugRequest, async (ctx, { params, query }) => {
    const found = await getService(strapi, 'content').resolveDetail('page', params.slug, ctx.state.auth, {
      locale: query.locale,
      countView: readerCounter(strapi, ctx),
    });
    if (found.redirect) return answerMoved(ctx, found.redirect);
    const readers = getService(strapi, 'readers');
    const data = found.data;
    ctx.body = { data, meta: await readers.detailMeta('page', data) };
  }),
});

export default pageController;
