import { Readable } from 'stream';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { SITEMAP_TYPE } from './sitemap.service';
import { newsSitemap } from './news-sitemap';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { sitemapPageRequest, sitemapRequest } from './feeds.shapes';

/** The sitemap (docs/discovery.md#sitemap), streamed: the body is written chunk by chunk as rows are read. */
const sitemapController = ({ strapi }: { strapi: Core.Strapi }) => ({
  index: checked(sitemapRequest, async (ctx, { query }) => {
    const service = getService(strapi, 'discovery-sitemap');
    const plan = await service.plan(query.locale);
    ctx.type = SITEMAP_TYPE;
    ctx.body = Readable.from(service.document(plan));
  }),
  page: checked(sitemapPageRequest, async (ctx, { params, query }) => {
    const service = getService(strapi, 'discovery-sitemap');
    const plan = await service.plan(query.locale);
    const chunks = await service.page(plan, params.page);
    ctx.type = SITEMAP_TYPE;
    ctx.body = Readable.from(chunks);
  }),
  news: checked(sitemapRequest, async (ctx, { query }) => {
    const body = await newsSitemap(strapi, query.locale);
    ctx.type = SITEMAP_TYPE;
    ctx.body = body;
  }),
});

export default sitemapController;
