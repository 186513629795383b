/**
 * `/api/bag/comments/unsubscribe`: opened from an e-mail (GET: a confirmation page; POST: the unsubscription), with no
 * Bearer token. The signed link is the authorization, so the route is outside Users & Permissions (`auth: false`):
 * revoking a role's action must not break the links in mails already sent.
 */
import * as shapes from './comment-unsubscribe.shapes';
import type { RouteModule } from '../../platform/route-types';

const commentUnsubscribeRoutes: RouteModule = {
  routes: [
    {
      method: 'GET',
      path: '/bag/comments/unsubscribe',
      handler: 'comment-unsubscribe.confirm',
      request: shapes.confirmRequest,
      response: shapes.confirmPage,
      config: { prefix: '', auth: false },
    },
    {
      method: 'POST',
      path: '/bag/comments/unsubscribe',
      handler: 'comment-unsubscribe.unsubscribe',
      request: shapes.unsubscribeRequest,
      response: shapes.unsubscribeResponse,
      config: { prefix: '', auth: false },
    },
  ],
  grants: {},
};

export default commentUnsubscribeRoutes;
