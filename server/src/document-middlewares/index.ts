/**
 * Document Service middlewares: rules that hold however a document is written through Strapi's APIs (this plugin's
 * endpoints, the Content Manager, another plugin's code). One rule per function, a feature's rules for one type in one
 * file; they run in this order, each around the next.
 */
import type { Core, Modules } from '@strapi/strapi';
import { articleDelete, keepViewCounts } from '../features/content';
import { cacheInvalidation } from '../features/cache';
import {
  commentClientInfo,
  commentDelete,
  commentMarkdown,
  commentEvents,
  commentNotifications,
  commentStatus,
} from '../features/comments';
import { redirectRules, slugHistory } from '../features/redirects';
import { newsletterOnPublish } from '../features/newsletters';

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
  newsletterOnPublish(strapi),
];
