import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';

const categoryController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'taxonomy').categoryTree(ctx.state.auth) };
  },
});

export default categoryController;
