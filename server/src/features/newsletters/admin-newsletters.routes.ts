/** Admin routes of newsletters (docs/newsletters.md#admin); every one needs the *Send newsletters* permission. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from './admin-newsletters.shapes';
import type { PluginRoute } from '../../platform/route-types';

const config = { policies: [requireAdmin(ADMIN_ACTIONS.newslettersSend)] };

const routes: PluginRoute[] = [
  { method: 'GET', path: '/newsletters', handler: 'admin-newsletter.newsletters', response: shapes.adminNewsletters, config },
  { method: 'POST', path: '/newsletters/:documentId/sends', handler: 'admin-newsletter.start', request: shapes.startRequest, response: shapes.started, config },
  { method: 'GET', path: '/newsletters/:documentId/subscribers', handler: 'admin-newsletter.subscribers', request: shapes.countsRequest, response: shapes.subscriberCounts, config },
  { method: 'GET', path: '/sends', handler: 'admin-newsletter.sends', request: shapes.sendListRequest, response: shapes.sendList, config },
  { method: 'GET', path: '/sends/:id', handler: 'admin-newsletter.send', request: shapes.sendRequest, response: shapes.sendResponse, config },
  { method: 'POST', path: '/sends/:id/cancel', handler: 'admin-newsletter.cancel', request: shapes.cancelRequest, response: shapes.sendResponse, config },
];

export default routes;
