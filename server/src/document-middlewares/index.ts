/**
 * Document Service middlewares: rules that hold however a document is written through Strapi's APIs (this plugin's
 * endpoints, the Content Manager, another plugin's code). One rule per file; they run in this order, each around the
 * next.
 */
import type { Core, Modules } from '@strapi/strapi';
import { articleDelete } from '../features/content/article-delete.document-middleware';
import { cacheInvalidation } from '../features/cache/cache-invalidation.document-middleware';
import { commentClientInfo } from '../features/comments/comment-client-info.document-middleware';
import { commentDelete } from '../features/comments/comment-delete.document-middleware';
import { commentMarkdown } from '../features/comments/comment-markdown.document-middleware';
import { commentEvents } from '../features/comments/comment-events.document-middleware';
import { commentNotifications } from '../features/comments/comment-notifications.document-middleware';
import { commentStatus } from '../features/comments/comment-status.document-middleware';
import { redirectRules } from '../features/redirects/redirect-rules.document-middleware';
import { slugHistory } from '../features/redirects/slug-history.document-middleware';
import { keepViewCounts } from '../features/content/view-counts.document-middleware';

export const documentMiddlewares = (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware[] => [
  cacheInvalidation(strapi),
  keepViewCounts(strapi),
  slugHistory(strapi),
  redirectRules(strapi),
  commentStatus(strapi),
  commentClientInfo(strapi),
  commentMarkdown(),
  commentDelete(strapi),
  commentNotifications(strapi),
  commentEvents(strapi),
  articleDelete(strapi),
];
