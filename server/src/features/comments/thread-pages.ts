/**
 * What the paged thread reads share (threads.ts, replies.ts): nodes from rows, and the page with its cursor. The
 * node query, the sort and keyset condition are SQL, in features/comments/threads.data.ts. Nodes are shaped field by
 * field from the selected columns: private columns (ip, userAgent, reportCount, the author's e-mail) are never read.
 */
import type { Core } from '@strapi/strapi';
import { cursorCodec, type CursorCodec, type CursorKey, type PageQuery, type ThreadSort } from './thread';
import { toIso } from '../../platform/time';
import type { RawRow } from './tables.data';
import type { z } from 'zod/v4';
import type { threadMeta, threadReply, threadRoot } from './comments.shapes';
import { nodeAuthor, nodeFields, pinnedAtOf } from './node-fields';

export type ThreadReply = z.infer<typeof threadReply>;
export type ThreadRoot = z.infer<typeof threadRoot>;
/** `total`: approved roots of the article (page of roots) or approved direct replies of the comment (replies); left out with `pagination[withCount]=false`. */
export type PageMeta = z.infer<typeof threadMeta>;

export const threadPages = (strapi: Core.Strapi) => {
  let codec: CursorCodec | undefined;
  /** The cursor codec, keyed by the app keys: every instance on one database accepts the others' cursors. */
  const cursors = () => (codec ??= cursorCodec(strapi.config.get('server.app.keys')));

  /** Pin times of the nodes made here: part of a page's cursor, never of the answer. */
  const pinnedAt = new WeakMap<ThreadReply, number>();

  const toNode = (row: RawRow, markdown: boolean): ThreadReply => {
    const node = shapeNode(row, markdown);
    const pin = pinnedAtOf(row);
    if (pin !== undefined) pinnedAt.set(node, pin);
    return node;
  };

  /** Every key written into one object in its order (no spread of a second object per node). */
  const shapeNode = (row: RawRow, markdown: boolean): ThreadReply => {
    const fields = nodeFields(row, markdown);
    const node: ThreadReply = {
      id: Number(row.id),
      documentId: String(row.documentId),
      content: String(row.content),
      createdAt: toIso(row.createdAt),
      isAdmin: Boolean(row.isAdmin),
      likes: Number(row.likes ?? 0),
      author: nodeAuthor(row),
      editedAt: fields.editedAt,
      pinned: fields.pinned,
      deleted: fields.deleted,
      replyCount: 0,
    };
    if (fields.contentHtml !== undefined) node.contentHtml = fields.contentHtml;
    node.replyCount = Number(row.replyCount ?? 0);
    return node;
  };

  /** Rows to nodes, a duplicated join row listed once, order kept. */
  const toNodes = (rows: RawRow[], markdown: boolean): ThreadReply[] => {
    const seen = new Set<number>();
    const nodes: ThreadReply[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      if (seen.has(id)) continue;
      seen.add(id);
      nodes.push(toNode(row, markdown));
    }
    return nodes;
  };

  const keyOf = (node: ThreadReply, sort: ThreadSort): CursorKey =>
    pinnedAt.has(node)
      ? { sort, pinnedAt: pinnedAt.get(node), createdAt: 0, id: node.id }
      : { sort, likes: sort === 'top' ? node.likes : undefined, createdAt: Date.parse(node.createdAt), id: node.id };

  /** The page's rows (fetched one more than asked, to know whether more follow) and its meta. */
  const paginate = <T extends ThreadReply>(rows: T[], query: PageQuery, total: number | undefined, closed = false) => {
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
      ...(closed ? { closed: true } : {}),
    };
    return { data, meta };
  };

  return { cursors, toNode, toNodes, paginate };
};
