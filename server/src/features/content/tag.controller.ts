import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';

const tagController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'taxonomy').tags(ctx.state.auth, ctx.query.locale) };
  },
});

export default tagController;
