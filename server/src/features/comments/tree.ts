/** `GET /api/bag/articles/:id/comments` without paging parameters: the approved comments of an article as a tree. */
import type { Core } from '@strapi/strapi';
import type { Identifier } from './comment-vocabulary';
import { toIso } from '../../platform/time';
import { articleCommentIds } from './tables.data';
import { approvedNodeRows, treeShapeRows } from './tree.data';
import { yieldToEventLoop } from '../../platform/json';
import { linkTree } from '../../platform/tree';
import { findPublishedArticle } from './articles';
import { visibleComments } from './visibility';
import { pinnedAtOf, treeNode, type TreeNodeFields } from './node-fields';
import type { CommentTreeNode } from './comments.shapes';

const oldestFirst = (a: TreeNodeFields, b: TreeNodeFields) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id);

/** Comments one query of the tree reads, their shape then their content; the event loop is handed back between. */
const SHAPE_SLICE = 2000;
const TREE_SLICE = 500;

export type CommentNode = TreeNodeFields;

export const tree = (strapi: Core.Strapi) => ({
  /**
   * The approved comments of a published article as a tree. First the ids of the article's comments (one row), then
   * their shape in slices (id, status, parent; every status, so a reply under a pending or rejected comment can be
   * told apart from one whose parent is elsewhere); then the visible ones' content, in slices; then one pass to
   * build the tree. The event loop is handed back between these steps, so a 10,000-comment thread does not stall the
   * other requests (SQLite answers synchronously).
   */
  async tree(identifier: Identifier | undefined, markdown: boolean): Promise<{ data: CommentTreeNode[]; meta: { total: number } }> {
    const article = await findPublishedArticle(strapi, identifier);
    // The request so far (its middlewares, the article's read) and the ids' read are each a stretch of their own.
    await yieldToEventLoop();
    const ids = await articleCommentIds(strapi, article.documentId);

    const statusOf = new Map<number, unknown>();
    const parentOf = new Map<number, number | null>();
    for (let at = 0; at < ids.length; at += SHAPE_SLICE) {
      await yieldToEventLoop();
      for (const row of await treeShapeRows(strapi, ids.slice(at, at + SHAPE_SLICE))) {
        statusOf.set(Number(row.id), row.status);
        parentOf.set(Number(row.id), row.parentId === null || row.parentId === undefined ? null : Number(row.parentId));
      }
    }
    // Deleted since its id was read: its replies are hidden, as a non-approved comment's are.
    if (statusOf.size < ids.length) for (const id of ids) if (!statusOf.has(id)) statusOf.set(id, 'gone');

    await yieldToEventLoop();
    const wanted = [...visibleComments(statusOf, parentOf)];

    const found = new Map<number, CommentTreeNode>();
    const pinnedAt = new Map<number, number>();
    for (let at = 0; at < wanted.length; at += TREE_SLICE) {
      await yieldToEventLoop();
      // Re-checked: a comment rejected or deleted since the shape was read is not shown.
      const rows = await approvedNodeRows(strapi, wanted.slice(at, at + TREE_SLICE));
      for (const row of rows) {
        const id = Number(row.id);
        if (found.has(id)) continue; // a duplicated join row is listed once
        const node = treeNode(row, markdown) as CommentTreeNode;
        node.children = [];
        found.set(id, node);
        const pin = pinnedAtOf(row);
        if (pin !== undefined) pinnedAt.set(id, pin);
      }
    }

    await yieldToEventLoop();
    // What went away between the two reads hides its replies too, as a non-approved comment does.
    let nodes = [...found.values()];
    if (found.size < wanted.length) {
      for (const id of wanted) if (!found.has(id)) statusOf.set(id, 'gone');
      const visible = visibleComments(statusOf, parentOf);
      nodes = nodes.filter((node) => visible.has(node.id));
    }

    const data = linkTree(nodes, {
      id: (node) => node.id,
      parentId: (node) => parentOf.get(node.id),
      // Pinned roots first, most recently pinned first; then oldest first.
      compare: pinnedAt.size === 0 ? oldestFirst : (a, b) => (pinnedAt.get(b.id) ?? -1) - (pinnedAt.get(a.id) ?? -1) || oldestFirst(a, b),
    });
    return { data, meta: { total: nodes.length } };
  },
});
