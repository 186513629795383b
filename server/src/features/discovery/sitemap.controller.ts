import { Readable } from 'stream';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { SITEMAP_TYPE } from './sitemap.service';
import { getService } from '../../platform/get-service';

/** The sitemap (docs/discovery.md#sitemap), streamed: the body is written chunk by chunk as rows are read. */
const sitemapController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async index(ctx: Context) {
    const service = getService(strapi, 'discovery-sitemap');
    const plan = await service.plan(ctx.query.locale);
    ctx.type = SITEMAP_TYPE;
    ctx.body = Readable.from(service.document(plan));
  },
  async page(ctx: Context) {
    const service = getService(strapi, 'discovery-sitemap');
    const plan = await service.plan(ctx.query.locale);
    const chunks = await service.page(plan, String(ctx.params.page));
    ctx.type = SITEMAP_TYPE;
    ctx.body = Readable.from(chunks);
  },
});

export default sitemapController;
