import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';

const categoryController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    await sendDeepJson(ctx, { data: await getService(strapi, 'taxonomy').categoryTree(ctx.state.auth, ctx.query.locale) });
  },
});

export default categoryController;
