/** `/api/bag/views`, `/api/bag/articles/popular`, `/api/bag/articles/:slug/related` (docs/readers.md). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { beaconRequest, popularRequest, relatedRequest } from './readers.shapes';

const readersController = ({ strapi }: { strapi: Core.Strapi }) => ({
  view: checked(beaconRequest, async (ctx, { body }) => {
    ctx.body = await getService(strapi, 'readers').beacon(body, ctx.get('User-Agent'));
    ctx.status = 202;
  }),
  popular: checked(popularRequest, async (ctx, { query }) => {
    ctx.body = await getService(strapi, 'readers').popular(query, ctx.state.auth);
  }),
  related: checked(relatedRequest, async (ctx, { params, query }) => {
    ctx.body = await getService(strapi, 'readers').related(params.slug, query, ctx.state.auth);
  }),
});

export default readersController;
