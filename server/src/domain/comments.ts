/** What a comment is, as every layer names it: statuses, identifiers, checked inputs (the public author: users.ts). */

export const COMMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

/** A documentId or a numeric id, as clients may send either. */
export type Identifier = string | number;

/** A checked `POST /bag/comments` body. */
export interface CommentInput {
  content: string;
  article: Identifier;
  parent?: Identifier;
  author?: Identifier;
}

/** A checked moderation list query. */
export interface AdminListQuery {
  status?: CommentStatus;
  article?: string;
  /** Only comments with at least one report, most reported first. */
  reported?: boolean;
  page: number;
  pageSize: number;
}

/** A checked report body. */
export interface ReportInput {
  reason: string;
  details?: string;
}
