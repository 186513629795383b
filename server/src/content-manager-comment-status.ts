/**
 * Lets the Content Manager save a comment's moderation `status`. The Content Manager reads `status` in a create or
 * update body as the draft & publish dimension ('draft' | 'published') and refuses anything else with 400
 * "Invalid status", so a comment could not be moved to approved or rejected there. This router middleware (the
 * same hook the host's i18n plugin uses on these routes) takes a moderation status out of the body before the
 * Content Manager sees it; the comment Document Service middleware puts it back into the data it saves. On the way
 * out it restores the stored status the Content Manager blanks in its answers.
 */
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { uid } from './utils/plugin-id';
import { COMMENT_STATUSES, type CommentStatus } from './validation/comment';

const COMMENT_PATH = `/content-manager/collection-types/${uid('comment')}`;
const STATE_KEY = 'cmsBagCommentStatus';

/** The moderation status a Content Manager request carried, if any (read by the document middleware). */
export const contentManagerCommentStatus = (ctx: Pick<Context, 'state'> | undefined): CommentStatus | undefined =>
  ctx?.state?.[STATE_KEY] as CommentStatus | undefined;

type Listed = { documentId?: unknown; status?: unknown };

/**
 * The Content Manager also answers `status: undefined` for every document of a type without draft & publish,
 * which would leave the moderation field empty in its views: put the stored value back (one query).
 */
const restoreStatuses = async (strapi: Core.Strapi, body: unknown) => {
  const response = body as { data?: Listed; results?: Listed[] } | undefined;
  const documents = [response?.data, ...(Array.isArray(response?.results) ? response.results : [])].filter(
    (document): document is Listed => typeof document?.documentId === 'string'
  );
  if (documents.length === 0) return;
  const rows = await strapi.db.query(uid('comment')).findMany({
    select: ['documentId', 'status'],
    where: { documentId: { $in: documents.map((document) => document.documentId as string) } },
  });
  const statusOf = new Map(rows.map((row: { documentId: string; status: string }) => [row.documentId, row.status]));
  for (const document of documents) {
    if (statusOf.has(document.documentId as string)) document.status = statusOf.get(document.documentId as string);
  }
};

export const registerContentManagerCommentStatus = (strapi: Core.Strapi) => {
  strapi.server.router.use('/content-manager/collection-types/:model', async (ctx: Context, next: Next) => {
    const path = decodeURIComponent(ctx.path);
    const isComment = path === COMMENT_PATH || path.startsWith(`${COMMENT_PATH}/`);
    const body = ctx.request.body as Record<string, unknown> | undefined;
    if (!isComment) return next();
    if ((ctx.method === 'POST' || ctx.method === 'PUT') && body && typeof body === 'object') {
      if (COMMENT_STATUSES.includes(body.status as CommentStatus)) {
        ctx.state[STATE_KEY] = body.status;
        delete body.status;
      }
    }
    await next();
    await restoreStatuses(strapi, ctx.body);
  });
};
