/** What deleting an article reads (features/content/article-delete.document-middleware.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const ARTICLE = uid('article');

/** How many rows (any locale, draft or published) the article document has. */
export const countArticleRows = (strapi: Core.Strapi, documentId: string): Promise<number> => strapi.db.query(ARTICLE).count({ where: { documentId } });
