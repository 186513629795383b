import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { groupRequest, inLocaleRequest } from './content.shapes';

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
    find: checked(inLocaleRequest, async (ctx, { query }) => {
      ctx.body = { data: await visible(ctx.state.auth, query.locale) };
    }),
    findByGroup: checked(groupRequest, async (ctx, { params, query }) => {
      ctx.body = { data: await visible(ctx.state.auth, query.locale, params.group) };
    }),
  };
};

export default bannerController;
