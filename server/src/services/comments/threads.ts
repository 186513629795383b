/**
 * Paged comment threads for front ends: a page of an article's approved roots (each with its first replies and
 * reply counts). The `comment-threads` service (as `getService` sees it) also holds replies.ts and counts.ts.
 *
 * Everything is read with a few SQL statements per page whose cost follows the page, not the article (but for
 * `meta.total`, one count): the roots in sort order with a keyset cursor (never an OFFSET), replies and counts
 * looked up for the page's ids only. Nothing is cached, so two instances on one database always answer the same.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { PluginConfig } from '../../config/schema';
import type { Identifier } from '../../domain/comments';
import type { PageQuery } from '../../domain/thread';
import { commentSchema, replyCountColumn, type RawRow } from '../../repositories/comments/tables';
import { counts } from './counts';
import { replies } from './replies';
import { threadPages, type PageMeta, type ThreadRoot } from './thread-pages';

export type { PageMeta, ThreadReply, ThreadRoot } from './thread-pages';

const commentThreads = ({ strapi }: { strapi: Core.Strapi }) => {
  const pages = threadPages(strapi);
  const { knex, nodeQuery, toNode, toNodes, applySort, paginate, replyCounts } = pages;

  /**
   * The rows of a published article (comments are linked to its draft and published rows), else 404, read in one
   * statement with what the choice of plan needs: whether the article's links make up more than a quarter of all
   * comments (the highest id bounds the table's size; at most that many links are read). Then walking the status
   * index in sort order is cheaper than reading the article's own links.
   */
  const publishedArticle = async (identifier: Identifier | undefined) => {
    if (identifier === undefined) throw new errors.NotFoundError('Article not found');
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
    const query = sameDocument(knex()(s.articles), documentId)
      .select({ id: 'id', publishedAt: s.articleColumn('publishedAt') })
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

  return {
    /** The cursor codec the paging parameters are checked with (validation/thread.ts). */
    cursors: pages.cursors,

    /** How a page of the article's roots is read: `index` (it holds a large share of all comments) or `links`. */
    async planOf(identifier: Identifier): Promise<'index' | 'links'> {
      return (await publishedArticle(identifier)).fromIndex ? 'index' : 'links';
    },

    /**
     * A page of an article's approved roots, each with its reply count and first replies. A root is a comment
     * with no parent. Only `meta.total` reads all of the article's roots (one count); everything else follows
     * the page size.
     */
    async roots(identifier: Identifier | undefined, query: PageQuery, config: PluginConfig): Promise<{ data: ThreadRoot[]; meta: PageMeta }> {
      const article = await publishedArticle(identifier);
      const s = commentSchema(strapi);
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
        const replyRows: RawRow[] = await nodeQuery(s, { from: ranked, commentId: 'r.id' })
          .where('r.rank', '<=', shown)
          .select({ parentId: 'r.parentId', siblings: 'r.siblings' })
          .select(replyCountColumn(knex(), s))
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

    ...replies(strapi, pages),
    ...counts(strapi),
  };
};

export type CommentThreadsService = ReturnType<typeof commentThreads>;
export default commentThreads;
