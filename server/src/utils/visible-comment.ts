/**
 * The comment a like or a report is about: one the public tree shows, i.e. approved, on a published article, with
 * every ancestor approved. Anything else is `404 Comment not found`, so these endpoints reveal nothing about
 * pending, rejected or hidden comments.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { tableOf } from './columns';
import { uid } from '../domain/plugin-id';
import type { Identifier } from '../domain/comments';

const COMMENT = uid('comment');
const ARTICLE = uid('article');

export interface FeedbackTarget {
  id: number;
  documentId: string;
}

interface JoinTable {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

const link = (strapi: Core.Strapi, attribute: string) => {
  const { joinTable } = strapi.db.metadata.get(COMMENT).attributes[attribute] as unknown as { joinTable: JoinTable };
  return { table: joinTable.name, comment: joinTable.joinColumn.name, target: joinTable.inverseJoinColumn.name };
};

const rowsOf = (result: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;

export const findVisibleComment = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<FeedbackTarget> => {
  const notFound = () => new errors.NotFoundError('Comment not found');
  if (identifier === undefined) throw notFound();
  const knex = strapi.db.connection;
  const comments = tableOf(strapi, COMMENT);
  const articles = tableOf(strapi, ARTICLE);

  const comment = await knex(comments.table)
    .where(typeof identifier === 'number' ? { id: identifier } : { [comments.column('documentId')]: identifier })
    .first({ id: 'id', documentId: comments.column('documentId'), status: comments.column('status') });
  if (!comment || comment.status !== 'approved') throw notFound();

  const articleLink = link(strapi, 'article');
  const published = await knex(`${articleLink.table} as l`)
    .join(`${articles.table} as a`, 'a.id', `l.${articleLink.target}`)
    .where(`l.${articleLink.comment}`, comment.id)
    .whereNotNull(`a.${articles.column('publishedAt')}`)
    .first({ id: 'a.id' });
  if (!published) throw notFound();

  // Every ancestor, in one recursive statement (UNION, not UNION ALL, so a cycle ends); any not approved hides it.
  const parentLink = link(strapi, 'parent');
  const hidden = rowsOf(
    await knex.raw(
      `WITH RECURSIVE up(id) AS (
         SELECT ?? FROM ?? WHERE ?? = ?
         UNION
         SELECT l.?? FROM ?? AS l JOIN up ON l.?? = up.id
       )
       SELECT COUNT(*) AS hidden FROM up JOIN ?? AS c ON c.id = up.id WHERE c.?? <> ?`,
      [
        parentLink.target, parentLink.table, parentLink.comment, comment.id,
        parentLink.target, parentLink.table, parentLink.comment,
        comments.table, comments.column('status'), 'approved',
      ]
    )
  );
  if (Number(hidden[0]?.hidden ?? 0) > 0) throw notFound();
  return { id: Number(comment.id), documentId: String(comment.documentId) };
};
