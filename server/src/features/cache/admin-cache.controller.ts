/** The response cache on the admin settings page: size, entries, hits and misses per type; clearing this process's store. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';

const adminCacheController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async stats(ctx: Context) {
    ctx.body = { data: getService(strapi, 'response-cache').stats() };
  },
  async clear(ctx: Context) {
    getService(strapi, 'response-cache').clear();
    ctx.body = { data: getService(strapi, 'response-cache').stats() };
  },
});

export default adminCacheController;
