/**
 * What the paged thread reads share (threads.ts, replies.ts): the public node query, the sort and keyset
 * condition, and the page with its cursor. Nodes are shaped field by field from the selected columns: private
 * columns (ip, userAgent, reportCount, the author's e-mail) are never read.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { PublicAuthor } from '../../domain/users';
import { cursorCodec, type CursorCodec, type CursorKey, type PageQuery, type ThreadSort } from '../../domain/thread';
import { toIso } from '../../domain/time';
import { commentSchema, publicNodeColumns, type CommentSchema, type RawRow } from '../../repositories/comments/tables';

export interface ThreadReply {
  id: number;
  documentId: string;
  content: string;
  createdAt: string;
  isAdmin: boolean;
  likes: number;
  author: PublicAuthor | null;
  /** Direct replies that are approved (their ancestors are, since this node is listed). */
  replyCount: number;
}

export interface ThreadRoot extends ThreadReply {
  /** The first `comments.thread.replies` direct approved replies, oldest first. */
  replies: ThreadReply[];
}

export interface PageMeta {
  pagination: { pageSize: number; hasMore: boolean; next: string | null };
  /** Approved roots of the article (page of roots) or approved direct replies of the comment (replies); left out with `pagination[withCount]=false`. */
  total?: number;
}

export const threadPages = (strapi: Core.Strapi) => {
  const knex = (): Knex => strapi.db.connection;
  let codec: CursorCodec | undefined;
  /** The cursor codec, keyed by the app keys: every instance on one database accepts the others' cursors. */
  const cursors = () => (codec ??= cursorCodec(strapi.config.get('server.app.keys')));

  /**
   * The columns of a public node, with the author joined (`al`, `u`) onto the comment aliased `c`. With `driver`,
   * the rows come from that table or subquery first and the comment is joined by `driver.commentId` as a CROSS
   * JOIN: SQLite never reorders one, so a lookup by parent walks the parent link's index instead of every approved
   * comment through the status index (PostgreSQL plans it as the inner join it is).
   */
  const nodeQuery = (s: CommentSchema, driver?: { from: string | Knex.QueryBuilder; commentId: string }) =>
    (driver
      ? knex()
          .from(driver.from as string)
          .joinRaw('cross join ??', [`${s.comments} as c`])
          .whereRaw('?? = ??', ['c.id', driver.commentId])
      : knex().from(`${s.comments} as c`)
    )
      .leftJoin(`${s.authorLink.table} as al`, `al.${s.authorLink.comment}`, 'c.id')
      .leftJoin(`${s.users} as u`, 'u.id', `al.${s.authorLink.target}`)
      .select(publicNodeColumns(s));

  const toNode = (row: RawRow): ThreadReply => ({
    id: Number(row.id),
    documentId: String(row.documentId),
    content: String(row.content),
    createdAt: toIso(row.createdAt),
    isAdmin: Boolean(row.isAdmin),
    likes: Number(row.likes ?? 0),
    author:
      row.authorId === null || row.authorId === undefined
        ? null
        : { id: Number(row.authorId), documentId: String(row.authorDocumentId), username: String(row.authorUsername) },
    replyCount: Number(row.replyCount ?? 0),
  });

  /** Rows to nodes, a duplicated join row listed once, order kept. */
  const toNodes = (rows: RawRow[]): ThreadReply[] => {
    const seen = new Set<number>();
    const nodes: ThreadReply[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      if (seen.has(id)) continue;
      seen.add(id);
      nodes.push(toNode(row));
    }
    return nodes;
  };

  /** Sort order and keyset condition on the comment aliased `c` (likes NULL on rows older than the column count as 0). */
  const applySort = (query: Knex.QueryBuilder, s: CommentSchema, sort: ThreadSort, after?: CursorKey) => {
    const createdAt = `c.${s.commentColumn('createdAt')}`;
    const likes = `c.${s.commentColumn('likes')}`;
    const direction = sort === 'createdAt:asc' ? 'asc' : 'desc';
    const beyond = direction === 'asc' ? '>' : '<';
    if (after) {
      const at = new Date(after.createdAt);
      const byTime = (q: Knex.QueryBuilder) =>
        q.where(createdAt, beyond, at).orWhere((tie) => tie.where(createdAt, '=', at).andWhere('c.id', beyond, after.id));
      if (sort === 'top') {
        const value = after.likes ?? 0;
        query.where((q) =>
          q.whereRaw('coalesce(??, 0) < ?', [likes, value]).orWhere((tie) => tie.whereRaw('coalesce(??, 0) = ?', [likes, value]).andWhere(byTime))
        );
      } else query.where(byTime);
    }
    if (sort === 'top') query.orderByRaw('coalesce(??, 0) desc', [likes]);
    query.orderBy(createdAt, direction).orderBy('c.id', direction);
  };

  const keyOf = (node: ThreadReply, sort: ThreadSort): CursorKey => ({
    sort,
    likes: sort === 'top' ? node.likes : undefined,
    createdAt: Date.parse(node.createdAt),
    id: node.id,
  });

  /** The page's rows (fetched one more than asked, to know whether more follow) and its meta. */
  const paginate = <T extends ThreadReply>(rows: T[], query: PageQuery, total: number | undefined) => {
    const hasMore = rows.length > query.pageSize;
    const data = hasMore ? rows.slice(0, query.pageSize) : rows;
    const last = data[data.length - 1];
    const meta: PageMeta = {
      pagination: {
        pageSize: query.pageSize,
        hasMore,
        next: hasMore && last ? cursors().encode(keyOf(last, query.sort)) : null,
      },
      ...(query.withCount && total !== undefined ? { total } : {}),
    };
    return { data, meta };
  };

  /** Direct approved replies per parent id, for the given ids (one GROUP BY). */
  const replyCounts = async (ids: number[]): Promise<Map<number, number>> => {
    const counts = new Map<number, number>();
    if (ids.length === 0) return counts;
    const s = commentSchema(strapi);
    // CROSS JOIN: from the parent link's index, not through every approved comment (see nodeQuery).
    const rows: RawRow[] = await knex()(`${s.parentLink.table} as p`)
      .joinRaw('cross join ??', [`${s.comments} as c`])
      .whereRaw('?? = ??', ['c.id', `p.${s.parentLink.comment}`])
      .whereIn(`p.${s.parentLink.target}`, ids)
      .where(`c.${s.commentColumn('status')}`, 'approved')
      .groupBy(`p.${s.parentLink.target}`)
      .select({ parentId: `p.${s.parentLink.target}` })
      .count({ count: 'c.id' });
    for (const row of rows) counts.set(Number(row.parentId), Number(row.count));
    return counts;
  };

  return { knex, cursors, nodeQuery, toNode, toNodes, applySort, paginate, replyCounts };
};
