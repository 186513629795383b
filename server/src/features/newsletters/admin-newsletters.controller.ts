/** Admin newsletter routes (docs/newsletters.md#admin): thin actions over the `newsletter-sends` service. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { cancelRequest, countsRequest, sendListRequest, sendRequest, startRequest } from './admin-newsletters.shapes';

const adminNewslettersController = ({ strapi }: { strapi: Core.Strapi }) => {
  const sends = () => getService(strapi, 'newsletter-sends');
  return {
    async newsletters(ctx: Context) {
      ctx.body = { data: await sends().newsletters() };
    },
    start: checked(startRequest, async (ctx, { params, body }) => {
      ctx.status = 201;
      ctx.body = { data: await sends().start(params.documentId, body) };
    }),
    subscribers: checked(countsRequest, async (ctx, { params }) => {
      ctx.body = { data: await sends().subscribers(params.documentId) };
    }),
    sends: checked(sendListRequest, async (ctx, { query }) => {
      ctx.body = { data: await sends().list(query) };
    }),
    send: checked(sendRequest, async (ctx, { params }) => {
      ctx.body = { data: await sends().get(Number(params.id)) };
    }),
    cancel: checked(cancelRequest, async (ctx, { params }) => {
      ctx.body = { data: await sends().cancel(Number(params.id)) };
    }),
  };
};

export default adminNewslettersController;
