/**
 * The keys edits, pins, tombstones and Markdown add to every public node (tree, pages, replies), from the selected columns: `editedAt`, `pinned`,
 * `deleted` and, with `comments.markdown`, `contentHtml` (rendered when the content was written; a comment stored
 * before the column existed is rendered here).
 */
import { toIso } from '../../platform/time';
import type { RawRow } from './tables.data';
import type { CommentTreeNode } from './comments.shapes';
import { renderCommentMarkdown } from './markdown';

export interface NodeFields {
  editedAt: string | null;
  pinned: boolean;
  deleted: boolean;
  contentHtml?: string;
}

/** The keys of a tree node without its `children`. */
export type TreeNodeFields = Omit<CommentTreeNode, 'children'>;

const present = (value: unknown) => value !== null && value !== undefined;

/**
 * A node's `author`: the user who wrote it, or, for a guest's comment kept from an import, `{ username }` with the
 * name the guest gave (docs/import.md); null when taken back (deleted) or when nobody is known.
 */
export const nodeAuthor = (row: RawRow): TreeNodeFields['author'] => {
  if (row.authorId !== null && row.authorId !== undefined) {
    return { id: Number(row.authorId), documentId: String(row.authorDocumentId), username: String(row.authorUsername) };
  }
  return present(row.authorName) && row.authorName !== '' && !row.deleted ? { username: String(row.authorName) } : null;
};

export const nodeFields = (row: RawRow, markdown: boolean): NodeFields => {
  const deleted = Boolean(row.deleted);
  return {
    editedAt: present(row.editedAt) ? toIso(row.editedAt) : null,
    pinned: present(row.pinnedAt),
    deleted,
    ...(markdown
      ? { contentHtml: deleted ? '' : present(row.contentHtml) ? String(row.contentHtml) : renderCommentMarkdown(String(row.content ?? '')) }
      : {}),
  };
};

/**
 * A node of the public tree from its row, every key written in one object literal (no spread, no copy): on a
 * 10,000-comment tree the nodes' building is a large share of the answer's cost.
 */
export const treeNode = (row: RawRow, markdown: boolean): TreeNodeFields => {
  const deleted = Boolean(row.deleted);
  const node: TreeNodeFields = {
    id: Number(row.id),
    documentId: String(row.documentId),
    content: String(row.content),
    createdAt: toIso(row.createdAt),
    isAdmin: Boolean(row.isAdmin),
    author: nodeAuthor(row),
    editedAt: present(row.editedAt) ? toIso(row.editedAt) : null,
    pinned: present(row.pinnedAt),
    deleted,
  };
  if (markdown) node.contentHtml = deleted ? '' : present(row.contentHtml) ? String(row.contentHtml) : renderCommentMarkdown(String(row.content ?? ''));
  return node;
};

/** A pinned root's pin time in epoch ms, for ordering and cursors; undefined when not pinned. */
export const pinnedAtOf = (row: RawRow): number | undefined =>
  present(row.pinnedAt) ? new Date(toIso(row.pinnedAt)).getTime() : undefined;
