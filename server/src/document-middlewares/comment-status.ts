/**
 * A moderation status sent through the Content Manager is saved if the admin's role may write it (see
 * middlewares/content-manager-comment-status.ts, which takes it out of the request body first).
 */
import type { Core, Modules } from '@strapi/strapi';
import { commentParams } from './comment-rule';
import { permittedCommentStatus } from '../middlewares/content-manager-comment-status';

export const commentStatus =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (params?.data && (context.action === 'create' || context.action === 'update')) {
      const moderationStatus = await permittedCommentStatus(strapi, strapi.requestContext.get(), context.action, params.documentId);
      if (moderationStatus) params.data.status = moderationStatus;
    }
    return next();
  };
