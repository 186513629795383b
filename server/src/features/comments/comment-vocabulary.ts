/**
 * What a comment is, as every layer names it: statuses, identifiers and checked inputs, all from the comment shapes
 * (features/comments/comments.shapes.ts, comment-feedback.ts); the public author: users.ts.
 */
import type { z } from 'zod/v4';
import type { Identifier } from '../../platform/shapes/common';
import type { commentInput } from './comments.shapes';
import type { reportBody } from './comment-feedback.shapes';

import type { CommentStatus } from './comments.shapes';

export { COMMENT_STATUSES, type CommentStatus } from './comments.shapes';
export type { Identifier } from '../../platform/shapes/common';

/**
 * The comment webhook events (docs/comments.md#webhooks): keys as the host's webhook store keys its events, values the
 * event names a webhook subscribes to (the server emits them, the settings page offers them).
 */
export const COMMENT_EVENTS = {
  COMMENT_CREATED: 'bag-comment.created',
  COMMENT_APPROVED: 'bag-comment.approved',
  COMMENT_REJECTED: 'bag-comment.rejected',
  COMMENT_REPORTED: 'bag-comment.reported',
  COMMENT_DELETED: 'bag-comment.deleted',
} as const;

export type CommentEvent = (typeof COMMENT_EVENTS)[keyof typeof COMMENT_EVENTS];

/** A checked `POST /bag/comments` body: ids as the services take them, an absent `parent` or `author` left out. */
export type CommentInput = Omit<z.output<typeof commentInput>, 'article' | 'parent' | 'author'> & {
  article: Identifier;
  parent?: Identifier;
  author?: Identifier;
};

/** A checked moderation list query (`moderationQuery` as the service takes it). */
export interface AdminListQuery {
  status?: CommentStatus;
  article?: string;
  /** Only comments with at least one report, most reported first. */
  reported?: boolean;
  page: number;
  pageSize: number;
}

/** A checked report body: `details` trimmed, left out when empty. */
export type ReportInput = Omit<z.output<typeof reportBody>, 'details'> & { details?: string };
