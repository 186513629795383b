/** Moderation API used by the plugin's moderation page; every route needs `comments.moderate`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from './admin-comments.shapes';
import { jsonBody, type PluginRoute } from '../../platform/route-types';

const moderate = { policies: [requireAdmin(ADMIN_ACTIONS.commentsModerate)] };

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/comments',
    handler: 'admin-comment.find',
    request: { query: shapes.moderationQuery },
    response: shapes.moderationList,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/comments/status',
    handler: 'admin-comment.setStatus',
    request: jsonBody(shapes.statusBody),
    response: shapes.statusResponse,
    config: moderate,
  },
  {
    method: 'POST',
    path: '/comments/:documentId/reply',
    handler: 'admin-comment.reply',
    request: { params: shapes.replyParams, ...jsonBody(shapes.replyBody) },
    response: shapes.replyResponse,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/comments/:documentId/pin',
    handler: 'admin-comment.pin',
    request: { params: shapes.replyParams, ...jsonBody(shapes.pinBody) },
    response: shapes.pinResponse,
    config: moderate,
  },
  {
    method: 'PUT',
    path: '/articles/:documentId/comments',
    handler: 'admin-comment.close',
    request: { params: shapes.closeParams, ...jsonBody(shapes.closeBody) },
    response: shapes.closeResponse,
    config: moderate,
  },
];

export default routes;
