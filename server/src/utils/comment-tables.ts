/**
 * Table and column names of comments, their articles and authors, and the comment link tables, from Strapi's
 * metadata: for the queries written by hand in services/comments.ts and services/comment-threads.ts, so renamed
 * columns or table prefixes keep working.
 */
import type { Core } from '@strapi/strapi';
import { tableOf } from './columns';
import { uid } from '../domain/plugin-id';

const COMMENT = uid('comment');
const ARTICLE = uid('article');
const USER = 'plugin::users-permissions.user';

interface JoinTable {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

export const commentTables = (strapi: Core.Strapi) => {
  const meta = strapi.db.metadata.get(COMMENT);
  const comment = tableOf(strapi, COMMENT);
  const article = tableOf(strapi, ARTICLE);
  const user = tableOf(strapi, USER);
  /** The link table of a comment relation: its name, the comment's column and the target's column. */
  const link = (attribute: string) => {
    const { joinTable } = meta.attributes[attribute] as unknown as { joinTable: JoinTable };
    return { table: joinTable.name, comment: joinTable.joinColumn.name, target: joinTable.inverseJoinColumn.name };
  };
  return {
    comments: comment.table,
    c: comment.column,
    articles: article.table,
    a: article.column,
    users: user.table,
    u: user.column,
    articleLink: link('article'),
    parentLink: link('parent'),
    authorLink: link('author'),
  };
};

export type CommentTables = ReturnType<typeof commentTables>;

/** The columns of a public comment node, for a query over comments aliased `c` joined to their author as `u`. */
export const publicNodeColumns = (s: CommentTables) => ({
  id: 'c.id',
  documentId: `c.${s.c('documentId')}`,
  content: `c.${s.c('content')}`,
  createdAt: `c.${s.c('createdAt')}`,
  isAdmin: `c.${s.c('isAdmin')}`,
  likes: `c.${s.c('likes')}`,
  authorId: 'u.id',
  authorDocumentId: `u.${s.u('documentId')}`,
  authorUsername: `u.${s.u('username')}`,
});
