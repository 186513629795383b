/**
 * A moderation status sent through the Content Manager is saved if the admin's role may write it (see
 * features/comments/content-manager-comment-status.middleware.ts, which takes it out of the request body first). Approving and the
 * site's badge are moderation: a comment an administrator without *Moderate comments* creates, clones or updates is
 * stored `pending` with `isAdmin` false, whatever the role's field permissions (docs/comments.md#choices-request-data-the-content-manager-deletion).
 */
import type { Core, Modules } from '@strapi/strapi';
import { commentParams } from './comment-rule.document-middleware';
import { mayNotModerate, permittedCommentStatus } from './content-manager-comment-status.middleware';

export const commentStatus =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params || (context.action !== 'create' && context.action !== 'update' && context.action !== 'clone')) return next();
    const request = strapi.requestContext.get();
    if (params.data && context.action !== 'clone') {
      const moderationStatus = await permittedCommentStatus(strapi, request, context.action, params.documentId);
      if (moderationStatus) params.data.status = moderationStatus;
    }
    if (mayNotModerate(request)) params.data = { ...params.data, status: 'pending', isAdmin: false };
    return next();
  };
