/**
 * A comment's `contentHtml` is rendered once, whenever its `content` is written (this plugin's routes, the Content
 * Manager, another plugin's code), so reads never run the renderer; a value sent for it is never kept.
 */
import type { Modules } from '@strapi/strapi';
import { renderCommentMarkdown } from './markdown';
import { commentParams } from './comment-rule.document-middleware';

export const commentMarkdown =
  (): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (params?.data && (context.action === 'create' || context.action === 'update')) {
      delete params.data.contentHtml;
      if (typeof params.data.content === 'string') params.data.contentHtml = renderCommentMarkdown(params.data.content);
    }
    return next();
  };
