import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { parseSearchQuery } from './search.validation';

/** `GET /api/bag/search` (docs/search.md): ranked full-text search over published articles. */
const searchController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'search').search(parseSearchQuery(ctx.query));
  },
});

export default searchController;
