/** The reads and writes of the moderation page (features/comments/moderation.ts): the list, statuses, pins, replies. */
import type { Core } from '@strapi/strapi';
import type { AdminListQuery, CommentStatus } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { commentIdsOfArticle, commentSchema, type RawRow } from './tables.data';

const COMMENT = uid('comment');

/** A comment as the moderation page reads it. */
export interface StoredComment {
  id: number;
  documentId: string;
  content: string;
  status: CommentStatus;
  isAdmin: boolean | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date | string;
  author?: { id: number; documentId: string; username: string; email: string } | null;
  article?: { documentId: string; title: string; slug: string } | null;
  parent?: { id: number; documentId: string } | null;
  likes?: number | null;
  reportCount?: number | null;
  pinnedAt?: Date | string | null;
}

const ADMIN_POPULATE = {
  author: { select: ['id', 'documentId', 'username', 'email'] },
  article: { select: ['documentId', 'title', 'slug'] },
  parent: { select: ['id', 'documentId'] },
};

/** The comments of these ids with their author, article and parent (in no order). */
export const adminComments = (strapi: Core.Strapi, ids: number[]) =>
  strapi.db.query(COMMENT).findMany({ where: { id: { $in: ids } }, populate: ADMIN_POPULATE }) as Promise<StoredComment[]>;

export const adminComment = (strapi: Core.Strapi, id: number | string) =>
  strapi.db.query(COMMENT).findOne({ where: { id }, populate: ADMIN_POPULATE }) as Promise<StoredComment | null>;

/** Moves the comments of these documentIds to `status` in one statement; returns how many. */
export const updateStatuses = async (strapi: Core.Strapi, documentIds: string[], status: CommentStatus, updatedAt: Date): Promise<number> => {
  const { count } = await strapi.db.query(COMMENT).updateMany({ where: { documentId: { $in: documentIds } }, data: { status, updatedAt } });
  return Number(count);
};

/** What pinning a comment checks: its row id and whether it has a parent. */
export const pinTarget = (strapi: Core.Strapi, documentId: string) =>
  strapi.db.query(COMMENT).findOne({
    select: ['id', 'deleted'],
    where: { documentId },
    populate: { parent: { select: ['id'] } },
  }) as Promise<{ id: number; parent?: { id: number } | null } | null>;

/** Pins the comment at `pinnedAt`, or unpins it (null). */
export const setPinnedAt = (strapi: Core.Strapi, id: number, pinnedAt: Date | null) => strapi.db.query(COMMENT).update({ where: { id }, data: { pinnedAt } });

/** The comment a site reply answers, with its article's documentId. */
export const replyParent = (strapi: Core.Strapi, documentId: string) =>
  strapi.db.query(COMMENT).findOne({
    select: ['id', 'documentId'],
    where: { documentId },
    populate: { article: { select: ['documentId'] } },
  }) as Promise<{ id: number; documentId: string; article?: { documentId: string } | null } | null>;

/**
 * The filtered comments' count and the ids of one page: pending first, then newest first; `reported`: reported
 * comments only, most reported first.
 */
export const adminListPage = async (strapi: Core.Strapi, query: AdminListQuery): Promise<{ total: number; ids: number[] }> => {
  const s = commentSchema(strapi);
  const base = strapi.db.connection(`${s.comments} as c`);
  if (query.status) base.where(`c.${s.commentColumn('status')}`, query.status);
  if (query.article) base.whereIn('c.id', commentIdsOfArticle(strapi, query.article));
  if (query.reported) base.where(`c.${s.commentColumn('reportCount')}`, '>', 0);

  const [{ count }] = await base.clone().count({ count: 'c.id' });
  const total = Number(count);
  const ids: number[] = (
    await base
      .clone()
      .select('c.id')
      .modify((builder) => {
        if (query.reported) builder.orderBy(`c.${s.commentColumn('reportCount')}`, 'desc');
      })
      .orderByRaw(`CASE WHEN c.?? = ? THEN 0 ELSE 1 END`, [s.commentColumn('status'), 'pending'])
      .orderBy(`c.${s.commentColumn('createdAt')}`, 'desc')
      .orderBy('c.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
  ).map((row: RawRow) => Number(row.id));
  return { total, ids };
};

export interface QueueRow {
  documentId: string;
  content: string;
  createdAt: string;
  article: { documentId: string; title: string } | null;
}

/**
 * The moderation queue of the homepage widget in one statement: the `limit` newest pending comments, each with its
 * article's documentId and title (the `locale` version first, as the moderation list names it), and the pending
 * count as a window over the whole filter (computed before the limit).
 */
export const pendingQueue = async (strapi: Core.Strapi, limit: number, locale: string): Promise<{ pending: number; newest: QueueRow[] }> => {
  const s = commentSchema(strapi);
  const knex = strapi.db.connection;
  const articleOf = (column: string, alias: string) =>
    knex(`${s.articleLink.table} as l`)
      .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
      .whereRaw('l.?? = c.id', [s.articleLink.comment])
      .select(`a.${s.articleColumn(column)}`)
      .orderByRaw('CASE WHEN a.?? = ? THEN 0 ELSE 1 END', [s.articleColumn('locale'), locale])
      .orderBy('a.id')
      .limit(1)
      .as(alias);
  const rows: RawRow[] = await knex(`${s.comments} as c`)
    .where(`c.${s.commentColumn('status')}`, 'pending')
    .select({
      documentId: `c.${s.commentColumn('documentId')}`,
      content: `c.${s.commentColumn('content')}`,
      createdAt: `c.${s.commentColumn('createdAt')}`,
    })
    .select(knex.raw('count(*) over () as ??', ['total']))
    .select(articleOf('documentId', 'articleDocumentId'), articleOf('title', 'articleTitle'))
    .orderBy(`c.${s.commentColumn('createdAt')}`, 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit);
  return {
    pending: rows.length === 0 ? 0 : Number(rows[0].total),
    newest: rows.map((row) => ({
      documentId: String(row.documentId),
      content: String(row.content ?? ''),
      createdAt: new Date(row.createdAt as string | number).toISOString(),
      article: row.articleDocumentId ? { documentId: String(row.articleDocumentId), title: String(row.articleTitle ?? '') } : null,
    })),
  };
};
