import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';

const menuController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async findOne(ctx: Context) {
    const menu = await getService(strapi, 'menus').detail(String(ctx.params.slug), ctx.state.auth, { locale: ctx.query.locale });
    await sendDeepJson(ctx, { data: menu });
  },
});

export default menuController;
