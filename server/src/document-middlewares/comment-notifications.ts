/**
 * A comment written approved or pending starts its e-mail notifications (services/comments/notifications/), and
 * an update approving it notifies the parent's author. A document delete has nothing to notify.
 */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../domain/plugin-id';
import { getService } from '../utils/get-service';

const COMMENT = uid('comment');

type Params = { documentId?: string; data?: Record<string, unknown> };

export const commentNotifications =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = context.params as Params;
    if (context.uid !== COMMENT || (context.action === 'delete' && params.documentId)) return next();
    const notify = await getService(strapi, 'comment-notifications').beforeWrite(context.action, params);
    const result = await next();
    notify(result);
    return result;
  };
