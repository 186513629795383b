/** The response cache on the admin settings page: size, entries, hits and misses per type; clearing this process's store. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { cacheClearRequest } from './admin-cache.shapes';

const adminCacheController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async stats(ctx: Context) {
    ctx.body = { data: getService(strapi, 'response-cache').stats() };
  },
  clear: checked(cacheClearRequest, async (ctx) => {
    getService(strapi, 'response-cache').clear();
    ctx.body = { data: getService(strapi, 'response-cache').stats() };
  }),
});

export default adminCacheController;
