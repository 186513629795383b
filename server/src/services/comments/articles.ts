/** The published article a comment is on or is being written on. */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Identifier } from '../../domain/comments';
import { uid } from '../../domain/plugin-id';

const ARTICLE = uid('article');

const articleDocumentId = async (strapi: Core.Strapi, identifier: Identifier): Promise<string | undefined> => {
  if (typeof identifier === 'string') return identifier;
  // A numeric id may name the draft or the published row; either gives the documentId (published is checked next).
  const row = await strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { id: identifier } });
  return row?.documentId;
};

/** The published article named by documentId or numeric id, else 404 `Article not found`. */
export const findPublishedArticle = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<{ id: number; documentId: string }> => {
  const documentId = identifier === undefined ? undefined : await articleDocumentId(strapi, identifier);
  const article = documentId ? await strapi.documents(ARTICLE).findOne({ documentId, status: 'published', fields: ['documentId'] }) : null;
  if (!article) throw new errors.NotFoundError('Article not found');
  return { id: article.id as number, documentId: article.documentId };
};
