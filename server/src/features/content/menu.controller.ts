import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { sendDeepJson } from '../../platform/json';
import { checked } from '../../platform/request-check';
import { bySlugRequest } from './content.shapes';

const menuController = ({ strapi }: { strapi: Core.Strapi }) => ({
  findOne: checked(bySlugRequest, async (ctx, { params, query }) => {
    const menu = await getService(strapi, 'menus').detail(params.slug, ctx.state.auth, { locale: query.locale });
    await sendDeepJson(ctx, { data: menu });
  }),
});

export default menuController;
