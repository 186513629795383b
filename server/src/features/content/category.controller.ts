import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';
import { checked } from '../../platform/request-check';
import { inLocaleRequest } from './content.shapes';

const categoryController = ({ strapi }: { strapi: Core.Strapi }) => ({
  find: checked(inLocaleRequest, async (ctx, { query }) => {
    await sendDeepJson(ctx, { data: await getService(strapi, 'taxonomy').categoryTree(ctx.state.auth, query.locale) });
  }),
});

export default categoryController;
