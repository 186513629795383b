/**
 * The SQL of the paged thread reads (features/comments/threads.ts, replies.ts): the article's rows with what the
 * choice of plan needs, a page of roots and its count, the first replies of the roots, reply counts, a page of
 * one comment's replies. Each applies the visibility rule in SQL: roots are approved comments without a parent,
 * replies are approved children of a visible comment.
 *
 * Nodes are read column by column (publicNodeColumns): private columns (ip, userAgent, reportCount, the author's
 * e-mail) are never read.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import type { Identifier } from './comment-vocabulary';
import type { CursorKey, ThreadSort } from './thread';
import { runBuilt } from '../../platform/prepared';
import { closedByAdminColumn, commentSchema, publicNodeColumns, replyCountColumn, type CommentSchema, type RawRow } from './tables.data';

/**
 * The columns of a public node, with the author joined (`al`, `u`) onto the comment aliased `c`. With `driver`,
 * the rows come from that table or subquery first and the comment is joined by `driver.commentId` as a CROSS
 * JOIN: SQLite never reorders one, so a lookup by parent walks the parent link's index instead of every approved
 * comment through the status index (PostgreSQL plans it as the inner join it is).
 */
const nodeQuery = (knex: () => Knex, s: CommentSchema, driver?: { from: string | Knex.QueryBuilder; commentId: string }) =>
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

/**
 * The rows of the article document (`id`, `publishedAt`, `closedByAdmin`), each with what the choice of plan needs, in one
 * statement: the comments' highest id (`maxId`), the count of the published rows' links, read up to a quarter
 * of that id (`links`; the highest id bounds the table's size), and whether one of its comments is pinned (`pinned`).
 */
export const articlePlanRows = async (strapi: Core.Strapi, identifier: Identifier): Promise<RawRow[]> => {
  const knex = (): Knex => strapi.db.connection;
  const s = commentSchema(strapi);
  const documentId = s.articleColumn('documentId');
  const sameDocument = (q: Knex.QueryBuilder, column: string) =>
    typeof identifier === 'number'
      ? q.whereIn(column, knex()(s.articles).select(documentId).where('id', identifier))
      : q.where(column, identifier);
  const publishedRows = sameDocument(knex()(s.articles).select('id').whereNotNull(s.articleColumn('publishedAt')), documentId);
  // LIMIT by a scalar subquery: the same statement on SQLite and PostgreSQL (knex's limit() takes numbers only).
  const links = knex().raw(
    '(select count(*) from (select 1 from ?? where ?? in ? limit (select coalesce(max(id), 0) / 4 + 1 from ??)) as ??) as ??',
    [s.articleLink.table, s.articleLink.target, publishedRows, s.comments, 'links', 'links']
  );
  // Whether any comment of the article is pinned (the pin index holds a few entries): a first page without pins is
  // the plain sorted read, not the union of pinned and unpinned roots.
  const pinned = knex().raw(
    '(select count(*) from (select 1 from ?? as pc cross join ?? as pl where pc.?? is not null and pl.?? = pc.id and pl.?? in ? limit 1) as ??) as ??',
    [s.comments, s.articleLink.table, s.commentColumn('pinnedAt'), s.articleLink.comment, s.articleLink.target, publishedRows, 'pins', 'pinned']
  );
  const query = sameDocument(knex()(s.articles), documentId)
    .select({ id: 'id', documentId, publishedAt: s.articleColumn('publishedAt') })
    .select(knex().raw('(select coalesce(max(id), 0) from ??) as ??', [s.comments, 'maxId']))
    .select(links)
    .select(pinned)
    .select(closedByAdminColumn(strapi, `${s.articles}.${documentId}`));
  const rows: RawRow[] = await query;
  return rows;
};

/**
 * The article's approved roots (comments with no parent) linked to `rowIds`, two ways. `useIndex` (an article
 * holding a large share of all comments): walk the approved comments in sort order through the `(status,
 * created_at)` index and keep the article's (the first page stops after a few hundred index entries). Otherwise:
 * start from its own links, so the cost is its comments, never the whole table.
 */
const approvedRoots = (knex: () => Knex, s: CommentSchema, rowIds: number[], q: Knex.QueryBuilder, useIndex: boolean) => {
  const noParent = (q: Knex.QueryBuilder) =>
    q.whereNotExists(
      knex()(`${s.parentLink.table} as p`).select(knex().raw('1')).whereRaw('?? = ??', [`p.${s.parentLink.comment}`, 'c.id'])
    );
  const status = `c.${s.commentColumn('status')}`;
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

const linkDriverOf = (s: CommentSchema) => ({ from: `${s.articleLink.table} as l`, commentId: `l.${s.articleLink.comment}` });

/**
 * A later page: a cursor that ended among the pinned roots continues there before the unpinned ones (the sort gains a
 * leading key, pinned or not, then the pin time); one that ended among the unpinned ones only reads unpinned roots.
 */
const applyPinnedFirst = (query: Knex.QueryBuilder, s: CommentSchema, after: CursorKey) => {
  const pinnedAt = `c.${s.commentColumn('pinnedAt')}`;
  if (after.pinnedAt !== undefined) {
    const at = new Date(after.pinnedAt);
    query.where((q) =>
      q
        .whereNull(pinnedAt)
        .orWhere(pinnedAt, '<', at)
        .orWhere((tie) => tie.where(pinnedAt, '=', at).andWhere('c.id', '<', after.id))
    );
  } else {
    // Past the pinned roots: the plain sort, which the status index can serve.
    query.whereNull(pinnedAt);
    return;
  }
  query
    .orderByRaw('case when ?? is null then 1 else 0 end', [pinnedAt])
    .orderBy(pinnedAt, 'desc')
    .orderByRaw('case when ?? is null then 0 else ?? end desc', [pinnedAt, 'c.id']);
};

/**
 * The first page in one statement that keeps the plain sort's index: the pinned roots (at most `limit`, most recently
 * pinned first) UNION ALL the unpinned roots in `sort` order (at most `limit`), each limited on its own, then the
 * at most 2 × `limit` rows put in page order and cut. A single ORDER BY led by "pinned or not" would sort every
 * approved root of the article to find the first page.
 */
const firstPageRows = (
  knex: () => Knex,
  s: CommentSchema,
  roots: { pinned: () => Knex.QueryBuilder; all: () => Knex.QueryBuilder },
  sort: ThreadSort,
  limit: number
) => {
  const pinnedAt = s.commentColumn('pinnedAt');
  const pinned = roots
    .pinned()
    .select(knex().raw('0 as ??', ['pinGroup']))
    .orderBy(`c.${pinnedAt}`, 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit);
  const unpinned = roots.all().select(knex().raw('1 as ??', ['pinGroup'])).whereNull(`c.${pinnedAt}`);
  applySort(unpinned, s, sort);
  unpinned.limit(limit);
  const direction = sort === 'createdAt:asc' ? 'asc' : 'desc';
  const page = knex()
    .select('*')
    .from((union: Knex.QueryBuilder) =>
      union
        .select('*')
        .from(pinned.as('pinned_roots'))
        .unionAll((rest: Knex.QueryBuilder) => rest.select('*').from(unpinned.as('unpinned_roots')))
        .as('page_roots')
    )
    .orderBy('pinGroup', 'asc')
    // Pin times are null in the unpinned group only, so they order the pinned group alone.
    .orderBy('pinnedAt', 'desc')
    .orderByRaw('case when ?? = 0 then ?? else 0 end desc', ['pinGroup', 'id']);
  if (sort === 'top') page.orderByRaw('coalesce(??, 0) desc', ['likes']);
  return page.orderBy('createdAt', direction).orderBy('id', direction).limit(limit);
};

/** A page of the approved roots linked to `rowIds` (node columns), in `sort` order after `after`, at most `limit` rows. */
export const rootRows = async (
  strapi: Core.Strapi,
  page: { rowIds: number[]; useIndex: boolean; pinned: boolean; sort: ThreadSort; after?: CursorKey; limit: number }
): Promise<RawRow[]> => {
  const knex = (): Knex => strapi.db.connection;
  const s = commentSchema(strapi);
  const { rowIds, useIndex } = page;
  const roots = () =>
    approvedRoots(knex, s, rowIds, useIndex ? nodeQuery(knex, s) : nodeQuery(knex, s, linkDriverOf(s)), useIndex);
  // The pinned roots from the pinned comments (the pin index, a few entries), then checked as roots of this article.
  const pinnedIds = knex()(s.comments).select('id').whereNotNull(s.commentColumn('pinnedAt')).as('pc');
  const pinned = () => approvedRoots(knex, s, rowIds, nodeQuery(knex, s, { from: pinnedIds, commentId: 'pc.id' }), true);
  // (Through knex: the first page of an article with pins, the rarer case, stays observable as one statement.)
  if (!page.after && page.pinned) return (await firstPageRows(knex, s, { pinned, all: roots }, page.sort, page.limit)) as RawRow[];
  const query = roots();
  // A first page of an article with no pinned comment is the plain sort.
  if (page.after) applyPinnedFirst(query, s, page.after);
  applySort(query, s, page.sort, page.after && page.after.pinnedAt === undefined ? page.after : undefined);
  return runBuilt(strapi, query.limit(page.limit));
};

/** How many approved roots are linked to `rowIds`; `fromIndex` as for the page (through the status index or from the links). */
export const rootCount = async (strapi: Core.Strapi, rowIds: number[], fromIndex: boolean): Promise<number> => {
  const knex = (): Knex => strapi.db.connection;
  const s = commentSchema(strapi);
  const linkDriver = linkDriverOf(s);
  const counter = fromIndex
    ? knex()(`${s.comments} as c`)
    : knex()(linkDriver.from).joinRaw('cross join ??', [`${s.comments} as c`]).whereRaw('?? = ??', ['c.id', linkDriver.commentId]);
  return Number((await approvedRoots(knex, s, rowIds, counter, fromIndex).count({ count: 'c.id' }))[0].count);
};

/**
 * The first `shown` direct approved replies of each root (node columns with their own `replyCount`, `parentId`,
 * `siblings`: the root's approved replies), oldest first, ordered by root.
 */
export const firstReplyRows = async (strapi: Core.Strapi, rootIds: number[], shown: number): Promise<RawRow[]> => {
  const knex = (): Knex => strapi.db.connection;
  const s = commentSchema(strapi);
  const ranked = knex()(`${s.parentLink.table} as p`)
    .joinRaw('cross join ??', [`${s.comments} as rc`])
    .whereRaw('?? = ??', ['rc.id', `p.${s.parentLink.comment}`])
    .whereIn(`p.${s.parentLink.target}`, rootIds)
    .where(`rc.${s.commentColumn('status')}`, 'approved')
    .select({ id: 'rc.id', parentId: `p.${s.parentLink.target}` })
    .select(
      knex().raw('row_number() over (partition by ?? order by ?? asc, ?? asc) as ??', [
        `p.${s.parentLink.target}`,
        `rc.${s.commentColumn('createdAt')}`,
        'rc.id',
        'rank',
      ]),
      knex().raw('count(*) over (partition by ??) as ??', [`p.${s.parentLink.target}`, 'siblings'])
    )
    .as('r');
  return runBuilt(
    strapi,
    nodeQuery(knex, s, { from: ranked, commentId: 'r.id' })
      .where('r.rank', '<=', shown)
      .select({ parentId: 'r.parentId', siblings: 'r.siblings' })
      .select(replyCountColumn(knex(), s))
      .orderBy('r.parentId')
      .orderBy('r.rank')
  );
};

/** Direct approved replies per parent id, for the given ids (one GROUP BY). */
export const replyCounts = async (strapi: Core.Strapi, ids: number[]): Promise<Map<number, number>> => {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  const s = commentSchema(strapi);
  // CROSS JOIN: from the parent link's index, not through every approved comment (see nodeQuery).
  const rows: RawRow[] = await strapi.db.connection(`${s.parentLink.table} as p`)
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

/** A page of one comment's direct approved replies (node columns with their own `replyCount`), in `sort` order after `after`. */
export const replyRows = async (
  strapi: Core.Strapi,
  page: { parentId: number; sort: ThreadSort; after?: CursorKey; limit: number }
): Promise<RawRow[]> => {
  const knex = (): Knex => strapi.db.connection;
  const s = commentSchema(strapi);
  const query = nodeQuery(knex, s, { from: `${s.parentLink.table} as p`, commentId: `p.${s.parentLink.comment}` })
    .where(`p.${s.parentLink.target}`, page.parentId)
    .where(`c.${s.commentColumn('status')}`, 'approved')
    .select(replyCountColumn(knex(), s));
  applySort(query, s, page.sort, page.after);
  const rows: RawRow[] = await query.limit(page.limit);
  return rows;
};
