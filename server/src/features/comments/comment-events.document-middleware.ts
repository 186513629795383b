/**
 * Comment webhooks and follower mails (features/comments/events.ts) however a comment is written through the
 * Document Service: created (this plugin's endpoint, an admin reply, the Content Manager), moved to approved or
 * rejected by an update, or deleted (its payload is read before the row goes).
 */
import type { Core, Modules } from '@strapi/strapi';
import type { CommentStatus } from './comment-vocabulary';
import { commentParams } from './comment-rule.document-middleware';
import { getService } from '../../platform/get-service';

const STATUSES: readonly unknown[] = ['approved', 'rejected'];

export const commentEvents =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params) return next();
    const events = getService(strapi, 'comment-events');
    if (context.action === 'delete') {
      if (!params.documentId) return next();
      const emit = await events.beforeDelete([params.documentId]);
      const result = await next();
      emit();
      return result;
    }
    const status = params.data?.status;
    const changing =
      context.action === 'update' && params.documentId && STATUSES.includes(status)
        ? await events.notYet([params.documentId], status as CommentStatus)
        : [];
    const result = await next();
    const written = (result ?? {}) as { documentId?: unknown; status?: unknown };
    if (context.action === 'create' && typeof written.documentId === 'string') {
      events.created(written.documentId, written.status as CommentStatus);
    } else if (context.action === 'update' && changing.length > 0 && written.status === status) {
      events.statusChanged(changing, status as CommentStatus);
    }
    return result;
  };
