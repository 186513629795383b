/**
 * The `comments` service (as `getService(strapi, 'comments')` sees it), one concern per file:
 * submission.ts (a new comment), authors.ts (an author's edit, delete and list), tree.ts (the whole approved tree),
 * moderation.ts (the moderation page: status, replies, pins), closing.ts (closed threads) and bookkeeping.ts (what a
 * delete needs). The second half of a write runs in the Document Service middlewares
 * (document-middlewares/): moderation status, client IP and User-Agent, notifications, and what a delete takes along.
 */
import type { Core } from '@strapi/strapi';
import { authors } from './authors';
import { bookkeeping } from './bookkeeping';
import { closing } from './closing';
import { moderation } from './moderation';
import { submission } from './submission';
import { tree } from './tree';

export type { CreatedComment } from './submission';
export type { CommentNode } from './tree';
export type { AdminComment } from './moderation';

const comments = ({ strapi }: { strapi: Core.Strapi }) => ({
  ...submission(strapi),
  ...authors(strapi),
  ...closing(strapi),
  ...tree(strapi),
  ...moderation(strapi),
  ...bookkeeping(strapi),
});

export type CommentsService = ReturnType<typeof comments>;
export default comments;
