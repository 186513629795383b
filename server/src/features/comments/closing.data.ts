/** The administrators' closed flags of article threads (the internal `comment-thread` rows) and what `closeAfter` reads (features/comments/closing.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const THREAD = uid('comment-thread');
const ARTICLE = uid('article');

/** Whether an administrator closed the article's thread. */
export const closedFlagOf = async (strapi: Core.Strapi, articleDocumentId: string): Promise<boolean> => {
  const row = await strapi.db.query(THREAD).findOne({ select: ['closed'], where: { article: articleDocumentId } });
  return Boolean(row?.closed);
};

/** Which of these articles (documentIds) an administrator closed. */
export const closedAmong = async (strapi: Core.Strapi, articleDocumentIds: string[]): Promise<string[]> =>
  ((await strapi.db.query(THREAD).findMany({ select: ['article'], where: { article: { $in: articleDocumentIds }, closed: true } })) as { article: string }[]).map(
    (row) => row.article,
  );

/** Sets the flag of the threads that have a row; returns how many. */
export const updateClosedFlag = async (strapi: Core.Strapi, articleDocumentId: string, closed: boolean): Promise<number> => {
  const { count } = await strapi.db.query(THREAD).updateMany({ where: { article: articleDocumentId }, data: { closed } });
  return count;
};

/** The thread's row (the unique article refuses a second). */
export const createThreadFlag = (strapi: Core.Strapi, articleDocumentId: string, closed: boolean) =>
  strapi.db.query(THREAD).create({ data: { article: articleDocumentId, closed } });

/** The earliest `field` (`firstPublishedAt` or `createdAt`) of the article's rows, as stored; none when no row has one. */
export const earliestOfArticle = async (strapi: Core.Strapi, articleDocumentId: string, field: string): Promise<unknown> => {
  const row = await strapi.db.query(ARTICLE).findOne({
    select: [field],
    where: { documentId: articleDocumentId, [field]: { $notNull: true } },
    orderBy: { [field]: 'asc' },
  });
  return row?.[field];
};

/** Whether the article document has a row (any locale, any status). */
export const articleExists = async (strapi: Core.Strapi, documentId: string): Promise<boolean> =>
  Boolean(await strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { documentId } }));
