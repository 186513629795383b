/**
 * The keys edits, pins, tombstones and Markdown add to every public node (tree, pages, replies), from the selected columns: `editedAt`, `pinned`,
 * `deleted` and, with `comments.markdown`, `contentHtml` (rendered when the content was written; a comment stored
 * before the column existed is rendered here).
 */
import { toIso } from '../../domain/time';
import type { RawRow } from '../../repositories/comments/tables';
import { renderCommentMarkdown } from './markdown';

export interface NodeFields {
  editedAt: string | null;
  pinned: boolean;
  deleted: boolean;
  contentHtml?: string;
}

const present = (value: unknown) => value !== null && value !== undefined;

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

/** A pinned root's pin time in epoch ms, for ordering and cursors; undefined when not pinned. */
export const pinnedAtOf = (row: RawRow): number | undefined =>
  present(row.pinnedAt) ? new Date(toIso(row.pinnedAt)).getTime() : undefined;
