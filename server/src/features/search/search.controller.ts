import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { facetsOf, searchRequest, suggestRequest } from './search.shapes';

/** `GET /api/bag/search` (docs/search.md): ranked full-text search over published articles. */
const searchController = ({ strapi }: { strapi: Core.Strapi }) => ({
  find: checked(searchRequest, async (ctx, { query: { pagination, typos, facets, ...query } }) => {
    ctx.body = await getService(strapi, 'search').search({ ...query, ...pagination, typos: typos !== 'false', facets: facetsOf(facets) });
  }),
  suggest: checked(suggestRequest, async (ctx, { query }) => {
    ctx.body = await getService(strapi, 'search').suggest(query);
  }),
});

export default searchController;
