/** Deleting an article document deletes its comments (and their likes and reports). */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { forgetFeedback } from '../comments';
import { countArticleRows } from './article-delete.data';

const ARTICLE = uid('article');

export const articleDelete =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const params = context.params as { documentId?: string };
    if (context.uid !== ARTICLE || context.action !== 'delete' || !params.documentId) return next();
    const service = getService(strapi, 'comments');
    const ids = await service.idsOfArticle(params.documentId);
    const result = await next();
    // A locale-scoped delete may leave other rows of the document; its comments go with the last one.
    const remaining = await countArticleRows(strapi, params.documentId);
    if (remaining === 0) {
      await service.deleteByIds(ids);
      await forgetFeedback(strapi, ids);
    }
    return result;
  };
