/**
 * `/api/bag/newsletters…` (docs/newsletters.md): the list, subscribing (by address with double opt-in, or as a member
 * with a Bearer token), the mailed links (confirm, unsubscribe: the token is the authorization, so `auth: false`,
 * and revoking a role's action never breaks a link already mailed), and the account's choices (Bearer).
 */
import * as shapes from './newsletters.shapes';
import { rateLimited, type Handler, type PluginRoute, type RouteModule } from '../../platform/route-types';

const PATH = '/bag/newsletters';
const granted: Handler[] = ['newsletter.list', 'newsletter.subscribe', 'newsletter.subscriptions', 'newsletter.setSubscriptions'];

const link = (method: PluginRoute['method'], path: string, handler: Handler, request: PluginRoute['request'], response: PluginRoute['response']): PluginRoute => ({
  method,
  path: `${PATH}/${path}`,
  handler,
  request,
  response,
  config: { prefix: '', auth: false },
});

const newslettersRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: PATH, handler: 'newsletter.list', response: shapes.newsletterList, config: { prefix: '' } },
    {
      method: 'POST',
      path: `${PATH}/subscribe`,
      handler: 'newsletter.subscribe',
      request: shapes.subscribeRequest,
      response: shapes.subscribeResponse,
      config: { prefix: '', middlewares: [rateLimited('sendCode', 'email')] },
    },
    link('GET', 'confirm', 'newsletter.confirmPage', shapes.tokenPageRequest, shapes.page),
    link('POST', 'confirm', 'newsletter.confirm', shapes.tokenPostRequest, shapes.message),
    link('GET', 'unsubscribe', 'newsletter.unsubscribePage', shapes.tokenPageRequest, shapes.page),
    link('POST', 'unsubscribe', 'newsletter.unsubscribe', shapes.tokenPostRequest, shapes.message),
    {
      method: 'GET',
      path: `${PATH}/subscriptions`,
      handler: 'newsletter.subscriptions',
      response: shapes.subscriptionList,
      config: { prefix: '' },
    },
    {
      method: 'PUT',
      path: `${PATH}/subscriptions`,
      handler: 'newsletter.setSubscriptions',
      request: shapes.setSubscriptionsRequest,
      response: shapes.subscriptionList,
      config: { prefix: '' },
    },
  ],
  // Public too: a Bearer route without a token then gets the route's 401, not the role check's 403.
  grants: { public: granted, authenticated: granted },
};

export default newslettersRoutes;
