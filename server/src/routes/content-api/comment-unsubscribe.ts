/**
 * `/api/bag/comments/unsubscribe`: opened from an e-mail (GET: a confirmation page; POST: the unsubscription), with no
 * Bearer token. The signed link is the authorization, so the route is outside Users & Permissions (`auth: false`):
 * revoking a role's action must not break the links in mails already sent.
 */
import type { RouteModule } from '../types';

const commentUnsubscribeRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: '/bag/comments/unsubscribe', handler: 'comment-unsubscribe.confirm', config: { prefix: '', auth: false } },
    { method: 'POST', path: '/bag/comments/unsubscribe', handler: 'comment-unsubscribe.unsubscribe', config: { prefix: '', auth: false } },
  ],
  grants: {},
};

export default commentUnsubscribeRoutes;
