import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { inLocaleRequest } from './content.shapes';

const tagController = ({ strapi }: { strapi: Core.Strapi }) => ({
  find: checked(inLocaleRequest, async (ctx, { query }) => {
    ctx.body = { data: await getService(strapi, 'taxonomy').tags(ctx.state.auth, query.locale) };
  }),
});

export default tagController;
