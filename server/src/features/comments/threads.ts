/**
 * Paged comment threads for front ends: a page of an article's approved roots (each with its first replies and
 * reply counts). The `comment-threads` service (as `getService` sees it) also holds replies.ts and counts.ts.
 *
 * Everything is read with a few SQL statements per page whose cost follows the page, not the article (but for
 * `meta.total`, one count, kept until a comment or the content changes): the roots in sort order with a keyset
 * cursor (never an OFFSET), replies and counts looked up for the page's ids only. The total is kept under the
 * comments' and the content's version stamps (features/cache/kept-by-version.ts), so two instances on one database
 * always answer the same.
 * The SQL is in features/comments/threads.data.ts; this file decides the plan and shapes the page.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { Identifier } from './comment-vocabulary';
import type { PageQuery } from './thread';
import { articlePlanRows, firstReplyRows, replyCounts, rootCount, rootRows } from './threads.data';
import { keptByVersion } from '../cache';
import { closing } from './closing';
import { counts } from './counts';
import { replies } from './replies';
import { threadPages, type PageMeta, type ThreadRoot } from './thread-pages';

export type { PageMeta, ThreadReply, ThreadRoot } from './thread-pages';

interface ArticlePlan {
  documentId: string;
  closedByAdmin: boolean;
  rowIds: number[];
  publishedRowIds: number[];
  fromIndex: boolean;
  pinned: boolean;
}

const commentThreads = ({ strapi }: { strapi: Core.Strapi }) => {
  const pages = threadPages(strapi);
  const { toNode, toNodes, paginate } = pages;
  /** `meta.total` of an article's roots, by its published rows, kept until a comment or the content changes. */
  const totals = keptByVersion<number>(strapi, 256, ['comments', 'content']);
  /**
   * What a page of an article needs to know first (its rows, the plan, pins, the administrator's flag), by the
   * identifier as asked, kept under the same stamps: read again only after a comment, a pin, a close or the content
   * changed (a close or a pin is a write to a watched model), so a page costs its own rows and not this statement.
   */
  const plans = keptByVersion<ArticlePlan>(strapi, 1024, ['comments', 'content']);

  const countRoots = async (version: number, rowIds: number[], fromIndex: boolean) => {
    const key = rowIds.join(',');
    const kept = totals.get(version, key);
    if (kept !== undefined) return kept;
    const total = await rootCount(strapi, rowIds, fromIndex);
    totals.set(version, key, total);
    return total;
  };

  /**
   * The rows of a published article (comments are linked to its draft and published rows), else 404, read in one
   * statement with what the choice of plan needs: whether the article's links make up more than a quarter of all
   * comments (the highest id bounds the table's size; at most that many links are read). Then walking the status
   * index in sort order is cheaper than reading the article's own links.
   */
  const publishedArticle = async (identifier: Identifier | undefined, version?: number): Promise<ArticlePlan> => {
    if (identifier === undefined) throw new errors.NotFoundError('Article not found');
    const key = `${typeof identifier}:${identifier}`;
    const kept = version === undefined ? undefined : plans.get(version, key);
    if (kept) return kept;
    const plan = await readPlan(identifier);
    if (version !== undefined) plans.set(version, key, plan);
    return plan;
  };
  const readPlan = async (identifier: Identifier): Promise<ArticlePlan> => {
    const rows = await articlePlanRows(strapi, identifier);
    const published = rows.filter((row) => row.publishedAt !== null && row.publishedAt !== undefined).map((row) => Number(row.id));
    if (published.length === 0) throw new errors.NotFoundError('Article not found');
    const maxCommentId = Number(rows[0].maxId ?? 0);
    return {
      documentId: String(rows[0].documentId),
      closedByAdmin: Boolean(rows[0].closedByAdmin),
      rowIds: rows.map((row) => Number(row.id)),
      publishedRowIds: published,
      fromIndex: Number(rows[0].links ?? 0) >= Math.floor(maxCommentId / 4) + 1,
      pinned: Number(rows[0].pinned ?? 0) > 0,
    };
  };

  return {
    /** The cursor codec the paging parameters are checked with (features/comments/thread.ts pageQueryOf). */
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
      // One read of the version stamps for the kept plan and total (read before either is computed).
      const version = await totals.version();
      const article = await publishedArticle(identifier, version);
      // Every comment of a published article is linked once to its published row: that link is the one read.
      const rowIds = article.publishedRowIds;
      const { fromIndex } = article;
      // `top` sorts on an expression no index serves: always from the links.
      const useIndex = fromIndex && query.sort !== 'top';
      const rows = await rootRows(strapi, { rowIds, useIndex, pinned: article.pinned, sort: query.sort, after: query.after, limit: query.pageSize + 1 });
      // The one read that grows with the article's roots (once per version); `pagination[withCount]=false` skips it.
      const total = query.withCount ? await countRoots(version, rowIds, fromIndex) : undefined;

      const closed = await closing(strapi).isClosed(article.documentId, config, article.closedByAdmin);
      const { data, meta } = paginate(toNodes(rows, config.comments.markdown), query, total, closed);
      const roots: ThreadRoot[] = data.map((node) => ({ ...node, replies: [] }));
      const rootIds = roots.map((root) => root.id);
      const byId = new Map(roots.map((root) => [root.id, root]));

      const shown = config.comments.thread.replies;
      if (shown > 0 && rootIds.length > 0) {
        const replyRows = await firstReplyRows(strapi, rootIds, shown);
        const seen = new Set<number>();
        for (const row of replyRows) {
          const root = byId.get(Number(row.parentId));
          if (!root || seen.has(Number(row.id))) continue;
          seen.add(Number(row.id));
          root.replyCount = Number(row.siblings);
          root.replies.push(toNode(row, config.comments.markdown));
        }
      } else if (rootIds.length > 0) {
        const counts = await replyCounts(strapi, rootIds);
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
