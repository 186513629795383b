/**
 * The plugin's places in Strapi's own screens (docs/admin.md): the homepage widgets and the Content Manager side
 * panel. "Comments to moderate" needs `comments.moderate`; "Most read" reading articles in the Content Manager; the
 * panel reading the document there, its comment counts *Moderate comments* (checked by the controller, which knows
 * the kind).
 */
import { ADMIN_ACTIONS, CONTENT_MANAGER_READ, requireAdmin } from '../../platform/admin-actions';
import { uid } from '../../platform/plugin-id';
import * as shapes from './admin-places.shapes';
import type { PluginRoute } from '../../platform/route-types';

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/widgets/moderation',
    handler: 'admin-places.moderationQueue',
    response: shapes.moderationQueueResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.commentsModerate)] },
  },
  {
    method: 'GET',
    path: '/widgets/most-read',
    handler: 'admin-places.mostRead',
    request: shapes.mostReadRequest,
    response: shapes.mostReadResponse,
    config: { policies: [requireAdmin({ action: CONTENT_MANAGER_READ, subject: uid('article') })] },
  },
  {
    method: 'GET',
    path: '/edit-panel/:kind/:documentId',
    handler: 'admin-places.editPanel',
    request: shapes.editPanelRequest,
    response: shapes.editPanelResponse,
    config: { policies: ['admin::isAuthenticatedAdmin'] },
  },
  {
    method: 'GET',
    path: '/edit-panel/:kind/:documentId/daily',
    handler: 'admin-places.editPanelDaily',
    request: shapes.editPanelRequest,
    response: shapes.editPanelDailyResponse,
    config: { policies: ['admin::isAuthenticatedAdmin'] },
  },
];

export default routes;
