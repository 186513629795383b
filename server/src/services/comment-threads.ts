/**
 * Paged comment threads for front ends: a page of approved roots (each with its first replies and reply counts),
 * the rest of one comment's replies page by page, and approved comment counts for many articles at once.
 *
 * Everything is read with a few SQL statements per page whose cost follows the page, not the article (but for
 * `meta.total`, one count): the roots in sort order with a keyset cursor (never an OFFSET), replies and counts
 * looked up for the page's ids only. Nothing is cached, so two instances
 * on one database always answer the same. Nodes are shaped field by field from the selected columns: private
 * columns (ip, userAgent, reportCount, the author's e-mail) are never read.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { PluginConfig } from '../config/schema';
import { commentTables, publicNodeColumns } from '../utils/comment-tables';
import { getService } from '../utils/get-service';
import type { PublicAuthor } from './comments';
import type { Identifier } from '../domain/comments';
import { cursorCodec, type CursorKey, type PageQuery, type ThreadSort } from '../domain/thread';
import { parsePageQuery } from '../validation/thread';

/** The author as the public tree shows it: `{ id, documentId, username }`. */
export type ThreadAuthor = PublicAuthor;

export interface ThreadReply {
  id: number;
  documentId: string;
  content: string;
  createdAt: string;
  isAdmin: boolean;
  likes: number;
  author: ThreadAuthor | null;
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

type RawRow = Record<string, unknown>;

/** Timestamps come back as Date (pg), epoch numbers or strings (SQLite). */
const toMs = (value: unknown): number => {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return new Date(String(value)).getTime();
};

const commentThreads = ({ strapi }: { strapi: Core.Strapi }) => {
  const knex = (): Knex => strapi.db.connection;
  let codec: ReturnType<typeof cursorCodec> | undefined;
  const cursors = () => (codec ??= cursorCodec(strapi.config.get('server.app.keys')));

  const schema = () => commentTables(strapi);

  /**
   * The columns of a public node, with the author joined (`al`, `u`) onto the comment aliased `c`. With `driver`,
   * the rows come from that table or subquery first and the comment is joined by `driver.commentId` as a CROSS
   * JOIN: SQLite never reorders one, so a lookup by parent walks the parent link's index instead of every approved
   * comment through the status index (PostgreSQL plans it as the inner join it is).
   */
  const nodeQuery = (s: ReturnType<typeof schema>, driver?: { from: string | Knex.QueryBuilder; commentId: string }) =>
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

  /** `replyCount` of the comment aliased `c` as a column: evaluated for the rows a query returns, no extra round trip. */
  const replyCountColumn = (s: ReturnType<typeof schema>) =>
    knex().raw('(select count(*) from ?? as rp cross join ?? as rq where rq.id = rp.?? and rp.?? = ?? and rq.?? = ?) as ??', [
      s.parentLink.table,
      s.comments,
      s.parentLink.comment,
      s.parentLink.target,
      'c.id',
      s.c('status'),
      'approved',
      'replyCount',
    ]);

  const toNode = (row: RawRow): ThreadReply => ({
    id: Number(row.id),
    documentId: String(row.documentId),
    content: String(row.content),
    createdAt: new Date(toMs(row.createdAt)).toISOString(),
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
  const applySort = (query: Knex.QueryBuilder, s: ReturnType<typeof schema>, sort: ThreadSort, after?: CursorKey) => {
    const createdAt = `c.${s.c('createdAt')}`;
    const likes = `c.${s.c('likes')}`;
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
    const s = schema();
    // CROSS JOIN: from the parent link's index, not through every approved comment (see nodeQuery).
    const rows: RawRow[] = await knex()(`${s.parentLink.table} as p`)
      .joinRaw('cross join ??', [`${s.comments} as c`])
      .whereRaw('?? = ??', ['c.id', `p.${s.parentLink.comment}`])
      .whereIn(`p.${s.parentLink.target}`, ids)
      .where(`c.${s.c('status')}`, 'approved')
      .groupBy(`p.${s.parentLink.target}`)
      .select({ parentId: `p.${s.parentLink.target}` })
      .count({ count: 'c.id' });
    for (const row of rows) counts.set(Number(row.parentId), Number(row.count));
    return counts;
  };

  /** The rows of a published article (draft, published; comments are linked to all of them), else 404. */
  /**
   * The rows of a published article (comments are linked to its draft and published rows), else 404, read in one
   * statement with what the choice of plan needs: whether the article's links make up more than a quarter of all
   * comments (the highest id bounds the table's size; at most that many links are read). Then walking the status
   * index in sort order is cheaper than reading the article's own links.
   */
  const publishedArticle = async (identifier: Identifier | undefined) => {
    if (identifier === undefined) throw new errors.NotFoundError('Article not found');
    const s = schema();
    const documentId = s.a('documentId');
    const sameDocument = (q: Knex.QueryBuilder, column: string) =>
      typeof identifier === 'number'
        ? q.whereIn(column, knex()(s.articles).select(documentId).where('id', identifier))
        : q.where(column, identifier);
    const publishedRows = sameDocument(knex()(s.articles).select('id').whereNotNull(s.a('publishedAt')), documentId);
    // LIMIT by a scalar subquery: the same statement on SQLite and PostgreSQL (knex's limit() takes numbers only).
    const links = knex().raw(
      '(select count(*) from (select 1 from ?? where ?? in ? limit (select coalesce(max(id), 0) / 4 + 1 from ??)) as ??) as ??',
      [s.articleLink.table, s.articleLink.target, publishedRows, s.comments, 'links', 'links']
    );
    const query = sameDocument(knex()(s.articles), documentId)
      .select({ id: 'id', publishedAt: s.a('publishedAt') })
      .select(knex().raw('(select coalesce(max(id), 0) from ??) as ??', [s.comments, 'maxId']))
      .select(links);
    const rows: RawRow[] = await query;
    const published = rows.filter((row) => row.publishedAt !== null && row.publishedAt !== undefined).map((row) => Number(row.id));
    if (published.length === 0) throw new errors.NotFoundError('Article not found');
    const maxCommentId = Number(rows[0].maxId ?? 0);
    return {
      rowIds: rows.map((row) => Number(row.id)),
      publishedRowIds: published,
      fromIndex: Number(rows[0].links ?? 0) >= Math.floor(maxCommentId / 4) + 1,
    };
  };

  const service = {
    /** How a page of the article's roots is read: `index` (it holds a large share of all comments) or `links`. */
    async planOf(identifier: Identifier): Promise<'index' | 'links'> {
      return (await publishedArticle(identifier)).fromIndex ? 'index' : 'links';
    },

    /** Parses the paging parameters of the roots endpoint (400 on anything malformed). */
    parseRootsQuery(query: unknown, config: PluginConfig): PageQuery {
      return parsePageQuery(query, config.comments.thread, cursors());
    },

    /**
     * `GET /api/bag/articles/:id/comments` with paging parameters, and GraphQL `bagCommentThread`: the query checked
     * (400 on anything malformed), then that page of roots. `query` has the REST form (`pagination[pageSize]`,
     * `after`, `sort`).
     */
    async rootsPage(identifier: Identifier | undefined, query: unknown) {
      const config = await getService(strapi, 'settings').get();
      return service.roots(identifier, service.parseRootsQuery(query, config), config);
    },

    /** Parses the paging parameters of the replies endpoint: oldest first only. */
    parseRepliesQuery(query: unknown, config: PluginConfig): PageQuery {
      return parsePageQuery(query, config.comments.thread, cursors(), { sorts: ['createdAt:asc'], defaultSort: 'createdAt:asc' });
    },

    /**
     * A page of an article's approved roots, each with its reply count and first replies. A root is a comment
     * with no parent. Only `meta.total` reads all of the article's roots (one count); everything else follows
     * the page size.
     */
    async roots(identifier: Identifier | undefined, query: PageQuery, config: PluginConfig): Promise<{ data: ThreadRoot[]; meta: PageMeta }> {
      const article = await publishedArticle(identifier);
      const s = schema();
      // Every comment of a published article is linked once to its published row: that link is the one read.
      const rowIds = article.publishedRowIds;
      const { fromIndex } = article;
      const noParent = (q: Knex.QueryBuilder) =>
        q.whereNotExists(
          knex()(`${s.parentLink.table} as p`).select(knex().raw('1')).whereRaw('?? = ??', [`p.${s.parentLink.comment}`, 'c.id'])
        );
      /**
       * The article's approved roots, two ways. An article holding a large share of all comments: walk the approved
       * comments in sort order through the `(status, created_at)` index and keep the article's (the first page
       * stops after a few hundred index entries). Any other article: start from its own links, so the cost is its
       * comments, never the whole table. `top` sorts on an expression no index serves: always from the links.
       */
      const approvedRoots = (q: Knex.QueryBuilder, useIndex: boolean) => {
        const status = `c.${s.c('status')}`;
        if (useIndex) {
          return noParent(
            q.where(status, 'approved').whereExists(
              knex()(`${s.articleLink.table} as l`)
                .select(knex().raw('1'))
                .whereRaw('?? = ??', [`l.${s.articleLink.comment}`, 'c.id'])
                .whereIn(`l.${s.articleLink.target}`, rowIds)
            )
          );
        }
        return noParent(q.whereIn(`l.${s.articleLink.target}`, rowIds).where(status, 'approved'));
      };
      const linkDriver = { from: `${s.articleLink.table} as l`, commentId: `l.${s.articleLink.comment}` };

      const useIndex = fromIndex && query.sort !== 'top';
      const page = approvedRoots(useIndex ? nodeQuery(s) : nodeQuery(s, linkDriver), useIndex);
      applySort(page, s, query.sort, query.after);
      const rows: RawRow[] = await page.limit(query.pageSize + 1);

      const counter = fromIndex
        ? knex()(`${s.comments} as c`)
        : knex()(linkDriver.from).joinRaw('cross join ??', [`${s.comments} as c`]).whereRaw('?? = ??', ['c.id', linkDriver.commentId]);
      // The one read that grows with the article's roots; `pagination[withCount]=false` skips it.
      const total = query.withCount ? Number((await approvedRoots(counter, fromIndex).count({ count: 'c.id' }))[0].count) : undefined;

      const { data, meta } = paginate(toNodes(rows), query, total);
      const roots: ThreadRoot[] = data.map((node) => ({ ...node, replies: [] }));
      const rootIds = roots.map((root) => root.id);
      const byId = new Map(roots.map((root) => [root.id, root]));

      const shown = config.comments.thread.replies;
      if (shown > 0 && rootIds.length > 0) {
        const ranked = knex()(`${s.parentLink.table} as p`)
          .joinRaw('cross join ??', [`${s.comments} as rc`])
          .whereRaw('?? = ??', ['rc.id', `p.${s.parentLink.comment}`])
          .whereIn(`p.${s.parentLink.target}`, rootIds)
          .where(`rc.${s.c('status')}`, 'approved')
          .select({ id: 'rc.id', parentId: `p.${s.parentLink.target}` })
          .select(
            knex().raw('row_number() over (partition by ?? order by ?? asc, ?? asc) as ??', [
              `p.${s.parentLink.target}`,
              `rc.${s.c('createdAt')}`,
              'rc.id',
              'rank',
            ]),
            knex().raw('count(*) over (partition by ??) as ??', [`p.${s.parentLink.target}`, 'siblings'])
          )
          .as('r');
        const replyRows: RawRow[] = await nodeQuery(s, { from: ranked, commentId: 'r.id' })
          .where('r.rank', '<=', shown)
          .select({ parentId: 'r.parentId', siblings: 'r.siblings' })
          .select(replyCountColumn(s))
          .orderBy('r.parentId')
          .orderBy('r.rank');
        const seen = new Set<number>();
        for (const row of replyRows) {
          const root = byId.get(Number(row.parentId));
          if (!root || seen.has(Number(row.id))) continue;
          seen.add(Number(row.id));
          root.replyCount = Number(row.siblings);
          root.replies.push(toNode(row));
        }
      } else if (rootIds.length > 0) {
        const counts = await replyCounts(rootIds);
        for (const root of roots) root.replyCount = counts.get(root.id) ?? 0;
      }
      return { data: roots, meta };
    },

    /**
     * A page of one comment's direct approved replies, oldest first. The comment must be approved, have only
     * approved ancestors (what the tree shows), and belong to a published article; otherwise 404.
     */
    async replies(identifier: Identifier | undefined, query: PageQuery): Promise<{ data: ThreadReply[]; meta: PageMeta }> {
      const parent = await service.visibleComment(identifier);
      if (parent === undefined) throw new errors.NotFoundError('Comment not found');
      const parentId = parent.id;
      const s = schema();
      const page = nodeQuery(s, { from: `${s.parentLink.table} as p`, commentId: `p.${s.parentLink.comment}` })
        .where(`p.${s.parentLink.target}`, parentId)
        .where(`c.${s.c('status')}`, 'approved')
        .select(replyCountColumn(s));
      applySort(page, s, query.sort, query.after);
      const rows: RawRow[] = await page.limit(query.pageSize + 1);
      return paginate(toNodes(rows), query, parent.replyCount);
    },

    /** A comment the public tree shows (approved, ancestors approved, article published) and its replyCount. */
    async visibleComment(identifier: Identifier | undefined): Promise<{ id: number; replyCount: number } | undefined> {
      if (identifier === undefined) return undefined;
      const s = schema();
      const status = s.c('status');
      const rows: RawRow[] = await knex()(`${s.comments} as c`)
        .join(`${s.articleLink.table} as l`, `l.${s.articleLink.comment}`, 'c.id')
        .join(`${s.articles} as a`, 'a.id', `l.${s.articleLink.target}`)
        .join(`${s.articles} as pa`, `pa.${s.a('documentId')}`, `a.${s.a('documentId')}`)
        .where(typeof identifier === 'number' ? { 'c.id': identifier } : { [`c.${s.c('documentId')}`]: identifier })
        .where(`c.${status}`, 'approved')
        .whereNotNull(`pa.${s.a('publishedAt')}`)
        .select('c.id')
        .select(replyCountColumn(s))
        .limit(1);
      if (rows.length === 0) return undefined;
      const id = Number(rows[0].id);
      // Every ancestor approved. UNION (not UNION ALL) ends the walk on a parent cycle.
      const hidden = await knex().raw(
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
      );
      const result = (Array.isArray(hidden) ? hidden : hidden.rows) as RawRow[];
      return Number(result[0]?.count ?? 0) === 0 ? { id, replyCount: Number(rows[0].replyCount ?? 0) } : undefined;
    },

    /**
     * Visible comments (approved, every ancestor approved: what the full tree's meta.total counts) per published
     * article, in ONE statement: the article rows, the approved comments linked to them, a recursive walk down
     * from the approved roots through approved replies, and a GROUP BY. Keys are the ids as given; an unknown or
     * unpublished article counts 0. The walk is a UNION, not UNION ALL: a comment left with two parent links by
     * racing edits can close a cycle below a root, and UNION drops the repeated row so the walk ends.
     */
    async counts(articles: { key: string; id: Identifier }[]): Promise<Record<string, number>> {
      const s = schema();
      const documentIds = articles.flatMap(({ id }) => (typeof id === 'string' ? [id] : []));
      const numericIds = articles.flatMap(({ id }) => (typeof id === 'number' ? [id] : []));
      const list = (values: unknown[]) => (values.length === 0 ? 'null' : values.map(() => '?').join(', '));
      const docId = s.a('documentId');
      const sql = `
        with recursive
        named as (
          select id, ?? as document_id from ?? where ?? in (${list(documentIds)}) or id in (${list(numericIds)})
        ),
        article_rows as (
          select a.id, a.?? as document_id from ?? a
          where a.?? in (select document_id from named)
            and a.?? in (select b.?? from ?? b where b.?? is not null and b.?? in (select document_id from named))
        ),
        approved as (
          select distinct l.?? as id, r.document_id from ?? l
          join article_rows r on r.id = l.??
          join ?? c on c.id = l.??
          where c.?? = ?
        ),
        visible(id, document_id) as (
          select ap.id, ap.document_id from approved ap
          where not exists (select 1 from ?? p where p.?? = ap.id)
          union
          select ap.id, ap.document_id from approved ap
          join ?? p on p.?? = ap.id
          join visible v on v.id = p.?? and v.document_id = ap.document_id
        )
        select n.id, n.document_id, count(v.id) as count
        from named n left join visible v on v.document_id = n.document_id
        group by n.id, n.document_id`;
      const bindings = [
        docId, s.articles, docId, ...documentIds, ...numericIds,
        docId, s.articles,
        docId,
        docId, docId, s.articles, s.a('publishedAt'), docId,
        s.articleLink.comment, s.articleLink.table,
        s.articleLink.target,
        s.comments, s.articleLink.comment,
        s.c('status'), 'approved',
        s.parentLink.table, s.parentLink.comment,
        s.parentLink.table, s.parentLink.comment,
        s.parentLink.target,
      ];
      const result = await knex().raw(sql, bindings);
      const rows = (Array.isArray(result) ? result : result.rows) as RawRow[];
      const byDocument = new Map<string, number>();
      const byRow = new Map<number, number>();
      for (const row of rows) {
        byDocument.set(String(row.document_id), Number(row.count));
        byRow.set(Number(row.id), Number(row.count));
      }
      const data: Record<string, number> = {};
      for (const { key, id } of articles) data[key] = (typeof id === 'number' ? byRow.get(id) : byDocument.get(id)) ?? 0;
      return data;
    },
  };

  return service;
};

export type CommentThreadsService = ReturnType<typeof commentThreads>;
export default commentThreads;
