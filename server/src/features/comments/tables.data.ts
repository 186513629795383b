/**
 * What the comment repositories share (the other files of this folder import it), for the hand-written SQL the
 * Document Service cannot express in one statement: table and column names from Strapi's metadata (so renamed
 * columns or table prefixes keep working; comments, likes and reports), the public node's columns, and the one
 * visibility rule every public path uses for a single comment.
 *
 * A comment is linked to its article by the article's documentId: the relation from this non-D&P type connects to
 * the article's draft and published rows, and publishing replaces the published row, so every lookup goes through
 * the article rows' document_id instead of trusting one row id.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { Identifier } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { USER_UID } from '../../platform/uids';
import { tableOf } from '../../platform/columns';

const COMMENT = uid('comment');
const ARTICLE = uid('article');
const REACTION = uid('comment-reaction');
const REPORT = uid('comment-report');
const THREAD = uid('comment-thread');

export type RawRow = Record<string, unknown>;

interface JoinTable {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

/** Rows of a `knex.raw` result: an array on SQLite, `{ rows }` on PostgreSQL. */
export const rowsOf = (result: unknown): RawRow[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as RawRow[];

/** Table and column names of comments, their articles and authors, and the comment link tables. */
export const commentSchema = (strapi: Core.Strapi) => {
  const meta = strapi.db.metadata.get(COMMENT);
  const comment = tableOf(strapi, COMMENT);
  const article = tableOf(strapi, ARTICLE);
  const user = tableOf(strapi, USER_UID);
  /** The link table of a comment relation: its name, the comment's column and the target's column. */
  const link = (attribute: string) => {
    const { joinTable } = meta.attributes[attribute] as unknown as { joinTable: JoinTable };
    return { table: joinTable.name, comment: joinTable.joinColumn.name, target: joinTable.inverseJoinColumn.name };
  };
  return {
    comments: comment.table,
    commentColumn: comment.column,
    articles: article.table,
    articleColumn: article.column,
    users: user.table,
    userColumn: user.column,
    articleLink: link('article'),
    parentLink: link('parent'),
    authorLink: link('author'),
  };
};

export type CommentSchema = ReturnType<typeof commentSchema>;

/**
 * `closedByAdmin` of the article document whose documentId is in `documentIdColumn` as a column: the thread's
 * `closed` flag (null when no administrator ever closed or reopened it), no extra round trip.
 */
export const closedByAdminColumn = (strapi: Core.Strapi, documentIdColumn: string) => {
  const thread = tableOf(strapi, THREAD);
  return strapi.db.connection.raw('(select t.?? from ?? as t where t.?? = ?? limit 1) as ??', [
    thread.column('closed'),
    thread.table,
    thread.column('article'),
    documentIdColumn,
    'closedByAdmin',
  ]);
};

/** Table and column names of likes (`comment-reaction` rows) and the comment's `likes` counter. */
export const reactionTables = (strapi: Core.Strapi) => {
  const reactions = tableOf(strapi, REACTION);
  const comments = tableOf(strapi, COMMENT);
  return {
    reactions: reactions.table,
    comment: reactions.column('comment'),
    voter: reactions.column('voter'),
    createdAt: reactions.column('createdAt'),
    updatedAt: reactions.column('updatedAt'),
    comments: comments.table,
    likes: comments.column('likes'),
  };
};

/** Table and column names of reports (`comment-report` rows) and the comment's columns a report moves. */
export const reportTables = (strapi: Core.Strapi) => {
  const reports = tableOf(strapi, REPORT);
  const comments = tableOf(strapi, COMMENT);
  return {
    reports: reports.table,
    comment: reports.column('comment'),
    voter: reports.column('voter'),
    reason: reports.column('reason'),
    details: reports.column('details'),
    createdAt: reports.column('createdAt'),
    updatedAt: reports.column('updatedAt'),
    comments: comments.table,
    documentId: comments.column('documentId'),
    status: comments.column('status'),
    reportCount: comments.column('reportCount'),
    commentUpdatedAt: comments.column('updatedAt'),
  };
};

/** The columns of a public comment node, for a query over comments aliased `c` joined to their author as `u`. */
export const publicNodeColumns = (s: CommentSchema) => ({
  id: 'c.id',
  documentId: `c.${s.commentColumn('documentId')}`,
  content: `c.${s.commentColumn('content')}`,
  createdAt: `c.${s.commentColumn('createdAt')}`,
  isAdmin: `c.${s.commentColumn('isAdmin')}`,
  likes: `c.${s.commentColumn('likes')}`,
  contentHtml: `c.${s.commentColumn('contentHtml')}`,
  editedAt: `c.${s.commentColumn('editedAt')}`,
  pinnedAt: `c.${s.commentColumn('pinnedAt')}`,
  deleted: `c.${s.commentColumn('deleted')}`,
  authorId: 'u.id',
  authorDocumentId: `u.${s.userColumn('documentId')}`,
  authorUsername: `u.${s.userColumn('username')}`,
  authorName: `c.${s.commentColumn('authorName')}`,
});

/** `replyCount` of the comment aliased `c` as a column: its direct approved replies, no extra round trip. */
export const replyCountColumn = (knex: Knex, s: CommentSchema) =>
  knex.raw('(select count(*) from ?? as rp cross join ?? as rq where rq.id = rp.?? and rp.?? = ?? and rq.?? = ?) as ??', [
    s.parentLink.table,
    s.comments,
    s.parentLink.comment,
    s.parentLink.target,
    'c.id',
    s.commentColumn('status'),
    'approved',
    'replyCount',
  ]);

/** Subquery: ids of the comments linked to any row (draft or published, any locale) of the article. */
export const commentIdsOfArticle = (strapi: Core.Strapi, articleDocumentId: string) => {
  const s = commentSchema(strapi);
  return strapi.db
    .connection(`${s.articleLink.table} as l`)
    .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
    .where(`a.${s.articleColumn('documentId')}`, articleDocumentId)
    .select(`l.${s.articleLink.comment}`);
};

/**
 * Ids of the comments linked to any row (draft or published, any locale) of the article, each once, in no order:
 * aggregated into one text by the database (one row, where 10,000 comments linked to two rows of their article
 * came back as 20,000 row objects).
 */
export const articleCommentIds = async (strapi: Core.Strapi, articleDocumentId: string): Promise<number[]> => {
  const s = commentSchema(strapi);
  const knex = strapi.db.connection;
  const column = `l.${s.articleLink.comment}`;
  const aggregate =
    strapi.db.dialect.client === 'postgres'
      ? knex.raw("string_agg(DISTINCT CAST(?? AS text), ',') AS ids", [column])
      : knex.raw('group_concat(DISTINCT ??) AS ids', [column]);
  const [row] = await knex(`${s.articleLink.table} as l`)
    .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
    .where(`a.${s.articleColumn('documentId')}`, articleDocumentId)
    .select(aggregate);
  const text = (row as RawRow | undefined)?.ids;
  return text === null || text === undefined || text === '' ? [] : String(text).split(',').map(Number);
};

export interface VisibleComment {
  id: number;
  documentId: string;
  /** The article document the comment is on. */
  articleDocumentId: string;
  /** Direct approved replies. */
  replyCount: number;
  /** Its article's thread closed by an administrator. */
  closedByAdmin: boolean;
}

/**
 * THE visibility rule for one comment: the public tree shows it when it is approved, belongs to a published article
 * and every ancestor is approved. Likes, reports, replies pages and a new reply's parent all ask this; the tree,
 * the pages of roots and the counts apply the same rule to many comments at once (features/comments/visibility.ts).
 * Undefined when the comment is not shown, so no caller can reveal a pending, rejected or hidden comment.
 */
export const findVisibleComment = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<VisibleComment | undefined> => {
  if (identifier === undefined) return undefined;
  const knex = strapi.db.connection;
  const s = commentSchema(strapi);
  const status = s.commentColumn('status');
  const rows: RawRow[] = await knex(`${s.comments} as c`)
    .join(`${s.articleLink.table} as l`, `l.${s.articleLink.comment}`, 'c.id')
    .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
    .join(`${s.articles} as pa`, `pa.${s.articleColumn('documentId')}`, `a.${s.articleColumn('documentId')}`)
    .where(typeof identifier === 'number' ? { 'c.id': identifier } : { [`c.${s.commentColumn('documentId')}`]: identifier })
    .where(`c.${status}`, 'approved')
    .whereNotNull(`pa.${s.articleColumn('publishedAt')}`)
    .select({ id: 'c.id', documentId: `c.${s.commentColumn('documentId')}`, articleDocumentId: `a.${s.articleColumn('documentId')}` })
    .select(replyCountColumn(knex, s))
    .select(closedByAdminColumn(strapi, `a.${s.articleColumn('documentId')}`))
    .limit(1);
  if (rows.length === 0) return undefined;
  const id = Number(rows[0].id);
  // Every ancestor approved. UNION (not UNION ALL) ends the walk on a parent cycle.
  const hidden = rowsOf(
    await knex.raw(
      `with recursive ancestors(id) as (
         select ?? from ?? where ?? = ?
         union
         select p.?? from ?? p join ancestors on p.?? = ancestors.id
       )
       select count(*) as count from ancestors join ?? c on c.id = ancestors.id where c.?? <> ?`,
      [
        s.parentLink.target, s.parentLink.table, s.parentLink.comment, id,
        s.parentLink.target, s.parentLink.table, s.parentLink.comment,
        s.comments, status, 'approved',
      ]
    )
  );
  if (Number(hidden[0]?.count ?? 0) !== 0) return undefined;
  return {
    id,
    documentId: String(rows[0].documentId),
    articleDocumentId: String(rows[0].articleDocumentId),
    replyCount: Number(rows[0].replyCount ?? 0),
    closedByAdmin: Boolean(rows[0].closedByAdmin),
  };
};
