/**
 * A comment written approved or pending starts its e-mail notifications (notifications/), and
 * an update approving it notifies the parent's author. A document delete has nothing to notify.
 */
import type { Core, Modules } from '@strapi/strapi';
import { commentParams } from './comment-rule.document-middleware';
import { getService } from '../../platform/get-service';

export const commentNotifications =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params || (context.action === 'delete' && params.documentId)) return next();
    const notify = await getService(strapi, 'comment-notifications').beforeWrite(context.action, params);
    const result = await next();
    notify(result);
    return result;
  };
