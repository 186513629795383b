/** Moderation API used by the plugin's moderation page; every route needs `comments.moderate`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../domain/admin-actions';
import type { PluginRoute } from '../types';

const moderate = { policies: [requireAdmin(ADMIN_ACTIONS.commentsModerate)] };

const routes: PluginRoute[] = [
  { method: 'GET', path: '/comments', handler: 'admin-comment.find', config: moderate },
  { method: 'PUT', path: '/comments/status', handler: 'admin-comment.setStatus', config: moderate },
  { method: 'POST', path: '/comments/:documentId/reply', handler: 'admin-comment.reply', config: moderate },
];

export default routes;
