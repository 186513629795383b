import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../utils/get-service';
import { sendDeepJson } from '../utils/json';

const menuController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async findOne(ctx: Context) {
    const menu = await getService(strapi, 'menus').findBySlug(String(ctx.params.slug), ctx.state.auth);
    if (!menu) throw new errors.NotFoundError('Menu not found');
    await sendDeepJson(ctx, { data: menu });
  },
});

export default menuController;
