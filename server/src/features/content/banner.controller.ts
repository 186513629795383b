import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';

const UID = 'plugin::cms-plugin-bag.banner';

const bannerController = ({ strapi }: { strapi: Core.Strapi }) => {
  const visible = (auth: unknown, locale: unknown, group?: string) =>
    getService(strapi, 'content').findAllPublished(UID, auth, {
      filters: { isVisible: { $eq: true }, ...(group === undefined ? {} : { group: { $eq: group } }) },
      sort: [{ order: 'asc' }, { id: 'asc' }],
      populate: ['image'],
      locale,
    });

  return {
    async find(ctx: Context) {
      ctx.body = { data: await visible(ctx.state.auth, ctx.query.locale) };
    },
    async findByGroup(ctx: Context) {
      ctx.body = { data: await visible(ctx.state.auth, ctx.query.locale, String(ctx.params.group)) };
    },
  };
};

export default bannerController;
