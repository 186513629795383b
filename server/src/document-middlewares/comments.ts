/**
 * Document Service middleware for comments and articles, so the rules hold however a comment is written through
 * Strapi's APIs (this plugin's endpoints, the Content Manager, another plugin's code):
 * - a comment created during an HTTP request gets that request's client IP and User-Agent (whatever the data
 *   said), and an update never changes them: they record the submission;
 * - a moderation status sent through the Content Manager is saved if the admin's role may write it (see
 *   content-manager-comment-status.ts);
 * - deleting a comment moves its replies up to its parent and deletes its likes and reports;
 * - a comment written approved or pending starts its e-mail notifications (services/comment-notifications.ts);
 * - deleting an article document deletes its comments.
 * Outside a request (seed scripts, migrations) the data is stored as given.
 */
import type { Core, Modules } from '@strapi/strapi';
import { permittedCommentStatus } from '../content-manager-comment-status';
import { clientInfo } from '../utils/client';
import { getService } from '../utils/get-service';
import { uid } from '../utils/plugin-id';

const COMMENT = uid('comment');
const ARTICLE = uid('article');

type Params = { documentId?: string; data?: Record<string, unknown> };

/** Likes and reports are rows keyed by comment id (no relation), so they go explicitly with their comments. */
export const forgetFeedback = async (strapi: Core.Strapi, commentIds: number[]) => {
  await getService(strapi, 'comment-reactions').deleteForComments(commentIds);
  await getService(strapi, 'comment-reports').deleteForComments(commentIds);
};

export const commentsDocumentMiddleware =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = context.params as Params;

    if (context.uid === COMMENT) {
      const request = strapi.requestContext.get();
      if (params.data && (context.action === 'create' || context.action === 'update')) {
        const moderationStatus = await permittedCommentStatus(strapi, request, context.action, params.documentId);
        if (moderationStatus) params.data.status = moderationStatus;
      }
      if (request && params.data && context.action === 'create') {
        Object.assign(params.data, clientInfo(request));
      } else if (request && params.data && context.action === 'update') {
        delete params.data.ip;
        delete params.data.userAgent;
      } else if (context.action === 'delete' && params.documentId) {
        await getService(strapi, 'comments').reparentChildren(params.documentId);
        const rows = await strapi.db.query(COMMENT).findMany({ select: ['id'], where: { documentId: params.documentId } });
        const result = await next();
        await forgetFeedback(strapi, rows.map((row: { id: number }) => row.id));
        return result;
      }
      const notify = await getService(strapi, 'comment-notifications').beforeWrite(context.action, params);
      const result = await next();
      notify(result);
      return result;
    }

    if (context.uid === ARTICLE && context.action === 'delete' && params.documentId) {
      const service = getService(strapi, 'comments');
      const ids = await service.idsOfArticle(params.documentId);
      const result = await next();
      // A locale-scoped delete may leave other rows of the document; its comments go with the last one.
      const remaining = await strapi.db.query(ARTICLE).count({ where: { documentId: params.documentId } });
      if (remaining === 0) {
        await service.deleteByIds(ids);
        await forgetFeedback(strapi, ids);
      }
      return result;
    }

    return next();
  };
