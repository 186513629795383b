/** The published article a comment is on or is being written on. */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Identifier } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { documentIdOfArticleRow, firstPublishedRow } from './articles.data';

const ARTICLE = uid('article');

const articleDocumentId = async (strapi: Core.Strapi, identifier: Identifier): Promise<string | undefined> => {
  if (typeof identifier === 'string') return identifier;
  // A numeric id may name the draft or the published row, of any locale; each gives the documentId (published is checked next).
  return documentIdOfArticleRow(strapi, identifier);
};

/** A published article document: the row a comment's answer names, and the locale whose version it links. */
export interface PublishedArticle {
  id: number;
  documentId: string;
  locale?: string;
}

/**
 * The published article named by documentId or numeric id (of any locale's row), else 404 `Article not found`.
 * Comments belong to the document, whatever the locale: its default locale's published version when it has one,
 * else its first published version in another locale (an article written in French only takes comments too).
 */
export const findPublishedArticle = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<PublishedArticle> => {
  const documentId = identifier === undefined ? undefined : await articleDocumentId(strapi, identifier);
  if (!documentId) throw new errors.NotFoundError('Article not found');
  const article = await strapi.documents(ARTICLE).findOne({ documentId, status: 'published', fields: ['documentId'] });
  if (article) return { id: article.id as number, documentId: article.documentId };
  const other = await firstPublishedRow(strapi, documentId);
  if (!other) throw new errors.NotFoundError('Article not found');
  return { id: other.id, documentId: other.documentId, locale: other.locale };
};
