/**
 * Deleting a comment moves its replies up to its parent (or makes them roots), so no one else's text is lost, and
 * deletes its likes and reports (rows keyed by comment id, no relation).
 */
import type { Core, Modules } from '@strapi/strapi';
import { commentParams } from './comment-rule.document-middleware';
import { rowIdsOf } from './bookkeeping.data';
import { getService } from '../../platform/get-service';

/** Likes and reports are rows keyed by comment id (no relation), so they go explicitly with their comments. */
export const forgetFeedback = async (strapi: Core.Strapi, commentIds: number[]) => {
  await getService(strapi, 'comment-reactions').deleteForComments(commentIds);
  await getService(strapi, 'comment-reports').deleteForComments(commentIds);
};

export const commentDelete =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params?.documentId || context.action !== 'delete') return next();
    await getService(strapi, 'comments').reparentChildren(params.documentId);
    const ids = await rowIdsOf(strapi, params.documentId);
    const result = await next();
    await forgetFeedback(strapi, ids);
    return result;
  };
