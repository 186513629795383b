/**
 * Comments stored before `contentHtml` existed get it rendered once, in the background after start-up, a batch at
 * a time with the event loop handed back between batches; until then reads render them (features/comments/node-fields.ts).
 * Idempotent, so several instances starting together only repeat a little work.
 */
import type { Core } from '@strapi/strapi';
import { commentsWithoutHtml, storeHtml } from './content-html.data';
import { renderCommentMarkdown } from './markdown';
import { getService } from '../../platform/get-service';
import { yieldToEventLoop } from '../../platform/json';

const BATCH = 200;

export const backfillCommentHtml = async (strapi: Core.Strapi): Promise<number> => {
  let afterId = 0;
  let filled = 0;
  for (;;) {
    const rows = await commentsWithoutHtml(strapi, afterId, BATCH);
    if (rows.length === 0) break;
    await storeHtml(strapi, rows.map((row) => ({ id: Number(row.id), html: renderCommentMarkdown(String(row.content ?? '')) })));
    filled += rows.length;
    afterId = Number(rows[rows.length - 1].id);
    await yieldToEventLoop();
  }
  if (filled > 0) await getService(strapi, 'cache-versions').invalidate('comments');
  return filled;
};

/** Starts the backfill without holding up the start; a failure is logged, reads keep rendering. */
export const startCommentHtmlBackfill = (strapi: Core.Strapi) => {
  backfillCommentHtml(strapi).catch((error: Error) => strapi.log.warn(`[cms-plugin-bag] comment HTML backfill stopped: ${error.message}`));
};
