/**
 * Which comments the public sees: approved, on a published article, every ancestor approved. One rule, applied
 * - to one comment by `findVisibleComment` (features/comments/tables.data.ts): likes, reports, a replies page, a new
 *   reply's parent;
 * - to a whole article in memory by `visibleComments` below: the full tree;
 * - in SQL to many at once: a page of roots is approved comments without a parent, replies are approved children of
 *   a visible comment (features/comments/threads.data.ts), counts walk down from approved roots through approved
 *   replies (features/comments/counts.data.ts).
 */
import { errors } from '@strapi/utils';
import type { Core } from '@strapi/strapi';
import type { Identifier } from './comment-vocabulary';
import { findVisibleComment, type VisibleComment } from './tables.data';

/** The visible comment, else 404 `Comment not found`: nothing is revealed about pending, rejected or hidden ones. */
export const visibleCommentOr404 = async (strapi: Core.Strapi, identifier: Identifier | undefined): Promise<VisibleComment> => {
  const visible = await findVisibleComment(strapi, identifier);
  if (!visible) throw new errors.NotFoundError('Comment not found');
  return visible;
};

/**
 * Which comments of one article are listed: approved, and with every ancestor that belongs to the article approved
 * too. A parent outside the article's rows (deleted, another article) does not hide a reply: the tree shows it at
 * the root, and so does a cycle. Iterative walk with memo, linear overall, no recursion.
 */
export const visibleComments = (statusOf: Map<number, unknown>, parentOf: Map<number, number | null>): Set<number> => {
  const known = new Map<number, boolean>();
  // Every comment a walk has stepped on. One not yet `known` is on the current walk's path: a cycle.
  const walked = new Set<number>();
  const path: number[] = [];
  for (const start of statusOf.keys()) {
    if (known.has(start)) continue;
    path.length = 0;
    let current: number | null = start;
    let result = true;
    for (;;) {
      if (current === null || !statusOf.has(current)) break; // reached a root or left the article
      if (known.has(current)) {
        result = known.get(current)!;
        break;
      }
      if (walked.has(current)) break; // a cycle: shown at the root by buildTree
      if (statusOf.get(current) !== 'approved') {
        result = false;
        break;
      }
      walked.add(current);
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    for (const id of path) known.set(id, result);
    if (!known.has(start)) known.set(start, false);
  }
  const shown = new Set<number>();
  for (const [id, visible] of known) if (visible) shown.add(id);
  return shown;
};
