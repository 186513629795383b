/** How a REST detail read counts its view: a reader's adds one, a crawler's only shows the count (docs/readers.md#what-counts). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { readCounts } from '../../platform/crawlers';
import { getService } from '../../platform/get-service';
import type { ViewCounter } from './content.service';

/** undefined: the default counter (one view); for a crawler, a counter that reads the count and adds none. */
export const readerCounter = (strapi: Core.Strapi, ctx: Context): ViewCounter | undefined =>
  readCounts(getService(strapi, 'settings').file().views.countBots, ctx.get('User-Agent'))
    ? undefined
    : (type, documentId) => getService(strapi, 'views').current(type, documentId);
