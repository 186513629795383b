/**
 * Document Service middlewares: rules that hold however a document is written through Strapi's APIs (this plugin's
 * endpoints, the Content Manager, another plugin's code). One rule per file; they run in this order, each around the
 * next.
 */
import type { Core, Modules } from '@strapi/strapi';
import { articleDelete } from './article-delete';
import { cacheInvalidation } from './cache-invalidation';
import { commentClientInfo } from './comment-client-info';
import { commentDelete } from './comment-delete';
import { commentMarkdown } from './comment-markdown';
import { commentEvents } from './comment-events';
import { commentNotifications } from './comment-notifications';
import { commentStatus } from './comment-status';
import { redirectRules } from './redirect-rules';
import { slugHistory } from './slug-history';
import { keepViewCounts } from './view-counts';

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
