/** Moderation API used by the plugin's moderation page; every route needs `comments.moderate`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from './admin-comments.shapes';
import type { PluginRoute } from '../../platform/route-types';

const moderate = { policies: [requireAdmin(ADMIN_ACTIONS.commentsModerate)] };

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/comments',
    handler: 'admin-comment.find',
    request: shapes.moderationRequest,
    response: shapes.moderationList,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/comments/status',
    handler: 'admin-comment.setStatus',
    request: shapes.statusRequest,
    response: shapes.statusResponse,
    config: moderate,
  },
  {
    method: 'POST',
    path: '/comments/:documentId/reply',
    handler: 'admin-comment.reply',
    request: shapes.replyRequest,
    response: shapes.replyResponse,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/comments/:documentId/pin',
    handler: 'admin-comment.pin',
    request: shapes.pinRequest,
    response: shapes.pinResponse,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/articles/:documentId/comments',
    handler: 'admin-comment.close',
    request: shapes.closeRequest,
    response: shapes.closeResponse,
    config: moderate,
  },
];

export default routes;
