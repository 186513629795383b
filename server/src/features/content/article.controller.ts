import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { DETAILS } from './content.service';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { bySlugRequest, listRequest } from './content.shapes';
import { answerMoved } from '../redirects';
import { readerCounter } from './reader-views';

const { uid: UID, populate: POPULATE } = DETAILS.article;

const articleController = ({ strapi }: { strapi: Core.Strapi }) => ({
  // The REST parameters go on as they came: the host's checks (features/content/query-checks.ts) word their refusals.
  find: checked(listRequest, async (ctx, { query }) => {
    const list = await getService(strapi, 'content').findPublished(UID, ctx.query, ctx.state.auth, {
      defaultPopulate: [...POPULATE],
      defaultSort: [{ isTop: 'desc' }, { publishedAt: 'desc' }],
      locale: query.locale,
    });
    // `commentCount` on every item, one statement for the page (docs/readers.md#comment-counts); not when `fields` chose.
    if (ctx.query.fields !== undefined) ctx.body = list;
    else ctx.body = { ...list, data: await getService(strapi, 'readers').withCommentCounts(list.data as Record<string, unknown>[]) };
  }),
  findOne: checked(bySlugRequest, async (ctx, { params, query }) => {
    const found = await getService(strapi, 'content').resolveDetail('article', params.slug, ctx.state.auth, {
      locale: query.locale,
      countView: readerCounter(strapi, ctx),
    });
    if (found.redirect) return answerMoved(ctx, found.redirect);
    const readers = getService(strapi, 'readers');
    // Side by side: their version stamps are then one shared read (docs/readers.md#measured).
    const [[data], meta] = await Promise.all([readers.withCommentCounts([found.data]), readers.detailMeta('article', found.data)]);
    ctx.body = { data, meta };
  }),
});

export default articleController;
